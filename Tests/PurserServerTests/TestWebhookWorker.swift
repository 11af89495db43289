import Foundation
import Logging
import PurserCore
import PurserServer
import PurserStorage
import PurserWebhooks
import ServiceLifecycle

/// A webhook worker of its own, as `serve` runs it, over a new SQLite ledger whose outbox holds `gifts` wallet
/// events (one of 10 gold to each of `users` in turn), posting to `backend`.
enum TestWebhookWorker {
    /// What `body` gets: the ledger, the endpoint, and `stop`, which shuts the worker down gracefully and returns
    /// once it ended.
    struct Running: Sendable {
        var store: SQLiteLedgerStore
        var endpoint: WebhookEndpoint
        var stop: @Sendable () async throws -> Void
    }

    static func run(
        backend: TestGameBackend, gifts: Int, users: [UserID], concurrency: Int,
        timeoutSeconds: Double, holder: String, _ body: @Sendable (Running) async throws -> Void
    ) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("purser-worker-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try await SQLiteLedgerStore.open(
            path: directory.appendingPathComponent("purser.sqlite").path, logger: Logger(label: "test"))
        try await backend.serving { url in
            try await store.whileRunning {
                try await store.migrate()
                for index in 1...gifts {
                    let request = WalletTransaction.Request(
                        id: "gift-\(index)", userID: users[index % users.count], amounts: ["gold": 10], reason: "gift",
                        cause: "admin")
                    _ = try await store.applyWalletTransaction(request, now: Date())
                }
                var settings = ServerConfiguration.Webhooks()
                settings.endpoints = [.init(url: url.absoluteString, secrets: [backend.secret.serialized])]
                settings.concurrency = concurrency
                settings.timeoutSeconds = timeoutSeconds
                settings.pollIntervalSeconds = 0.02
                let endpoint = try WebhookEndpoint(settings.endpoints[0], index: 0)
                let worker = WebhookDeliveryService(
                    store: store, endpoints: [endpoint], settings: settings, jitter: WebhookJitter(seed: 1),
                    holder: holder, logger: Logger(label: "test"), now: { Date() })
                let group = ServiceGroup(
                    configuration: .init(services: [worker], gracefulShutdownSignals: [], logger: Logger(label: "test"))
                )
                let running = Task { try await group.run() }
                let stop: @Sendable () async throws -> Void = {
                    await group.triggerGracefulShutdown()
                    try await running.value
                }
                do {
                    try await body(Running(store: store, endpoint: endpoint, stop: stop))
                } catch {
                    try? await stop()
                    throw error
                }
                try await stop()
            }
        }
    }
}
