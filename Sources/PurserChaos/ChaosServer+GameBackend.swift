import Foundation
import Hummingbird
import Logging
import PurserServer
import PurserWebhooks
import ServiceLifecycle

extension ChaosServer {
    /// The sender's time-out in a run: a stalled answer outlasts it.
    static let webhookTimeoutSeconds = 1.0
    /// Retries come fast in a run (the heal phase waits for the outbox to drain): 0.05 s doubling to 0.8 s, then
    /// every second, for over a minute before an event would be dead-lettered.
    static let webhookRetrySeconds: [Double] = [0.05, 0.1, 0.2, 0.4, 0.8] + Array(repeating: 1, count: 60)

    /// The webhook settings of a run's server: the game backend at `url`, signed with `secret`, fast retries, a
    /// short claim so a killed replica's deliveries are taken over within seconds.
    static func webhookSettings(url: URL, secret: WebhookSecret) -> ServerConfiguration.Webhooks {
        var settings = ServerConfiguration.Webhooks()
        settings.endpoints = [.init(url: url.absoluteString, secrets: [secret.serialized])]
        settings.retrySeconds = webhookRetrySeconds
        settings.timeoutSeconds = webhookTimeoutSeconds
        settings.pollIntervalSeconds = 0.05
        settings.claimSeconds = 5
        return settings
    }

    /// The same settings as a configuration file's `webhooks` object, for the replicas.
    static func webhookFileSettings(url: URL, secret: WebhookSecret) -> [String: Any] {
        [
            "endpoints": [["url": url.absoluteString, "secret": secret.serialized]],
            "retrySeconds": webhookRetrySeconds, "timeoutSeconds": webhookTimeoutSeconds,
            "pollIntervalSeconds": 0.05, "claimSeconds": 5,
        ]
    }

    /// Runs `body` with the run's game backend listening on a loopback port, and stops it afterwards.
    static func withGameBackend<T: Sendable>(
        clock: ChaosClock, logger: Logger, _ body: @Sendable (GameBackend, URL) async throws -> T
    ) async throws -> T {
        let backend = GameBackend(clock: clock, stall: .milliseconds(Int64(webhookTimeoutSeconds * 1000) + 300))
        let (ports, listening) = AsyncStream.makeStream(of: Int.self)
        let group = ServiceGroup(
            configuration: .init(
                services: [backend.application { listening.yield($0) }], logger: logger))
        return try await withThrowingTaskGroup(of: T?.self) { tasks in
            tasks.addTask {
                try await group.run()
                return nil
            }
            var iterator = ports.makeAsyncIterator()
            guard let port = await iterator.next(), port > 0 else {
                await group.triggerGracefulShutdown()
                throw ChaosError(.setupFailed, "the game backend did not start listening")
            }
            let outcome: Result<T, any Error>
            do {
                outcome = .success(try await body(backend, URL(string: "http://127.0.0.1:\(port)/purser/webhooks")!))
            } catch {
                outcome = .failure(error)
            }
            await group.triggerGracefulShutdown()
            try? await tasks.waitForAll()
            return try outcome.get()
        }
    }
}
