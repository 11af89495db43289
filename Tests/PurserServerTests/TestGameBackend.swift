import Foundation
import HTTPTypes
import Hummingbird
import Logging
import PurserWebhooks
import ServiceLifecycle
import Synchronization

/// A game backend for the webhook tests: a real HTTP server on a loopback port that verifies every post with
/// PurserWebhooks, applies each event once per `webhook-id` to its balances, and answers as `behaviour` says for the
/// n-th post of an event (it may apply and then stall, so the sender times out and retries).
final class TestGameBackend: Sendable {
    enum Answer: Sendable {
        case ok
        case status(HTTPResponse.Status)
        /// Applies, then answers 204 after `delay`.
        case slow(Duration)
        /// Applies, then answers 204 once `released()` is true (asked every 20 ms), or after a minute.
        case held(until: @Sendable () -> Bool)
    }

    struct Post: Sendable {
        var id: String
        var event: WebhookEvent
    }

    private struct State {
        var posts: [Post] = []
        var applied: Set<String> = []
        var balances: [String: Int64] = [:]
        var refused = 0
    }

    let secret = WebhookSecret.generate()
    private let behaviour: @Sendable (_ event: WebhookEvent, _ post: Int) -> Answer
    private let now: @Sendable () -> Date
    private let state = Mutex(State())

    /// `behaviour(n)`: the answer to the n-th post (1 for the first) of one event; `now`: the backend's clock, which
    /// the timestamp tolerance is checked against.
    init(
        behaviour: @escaping @Sendable (_ post: Int) -> Answer = { _ in .ok },
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.now = now
        self.behaviour = { _, post in behaviour(post) }
    }

    /// `answering(event, n)`: the answer to the n-th post of `event`, for a backend that treats events differently.
    init(
        answering: @escaping @Sendable (_ event: WebhookEvent, _ post: Int) -> Answer,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.now = now
        self.behaviour = answering
    }

    var posts: [Post] { state.withLock { $0.posts } }
    var appliedIDs: Set<String> { state.withLock { $0.applied } }
    var balances: [String: Int64] { state.withLock { $0.balances } }
    var refused: Int { state.withLock { $0.refused } }

    /// Runs the backend on `port` (0: any) for the length of `body`, which gets the endpoint's URL.
    func serving<T: Sendable>(port: Int = 0, _ body: @Sendable (URL) async throws -> T) async throws -> T {
        let router = Router()
        router.post("hooks") { request, _ in try await self.receive(request) }
        let (ports, listening) = AsyncStream.makeStream(of: Int.self)
        let app = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: port)),
            onServerRunning: { listening.yield($0.localAddress?.port ?? 0) })
        let group = ServiceGroup(configuration: .init(services: [app], logger: Logger(label: "test.backend")))
        return try await withThrowingTaskGroup(of: T?.self) { tasks in
            tasks.addTask {
                try await group.run()
                return nil
            }
            var iterator = ports.makeAsyncIterator()
            let bound = await iterator.next() ?? 0
            let outcome: Result<T, any Error>
            do {
                outcome = .success(try await body(URL(string: "http://127.0.0.1:\(bound)/hooks")!))
            } catch {
                outcome = .failure(error)
            }
            await group.triggerGracefulShutdown()
            try? await tasks.waitForAll()
            return try outcome.get()
        }
    }

    private func receive(_ request: Request) async throws -> Response {
        let body = try await request.body.collect(upTo: 1 << 20)
        let verified: VerifiedWebhook
        do {
            verified = try WebhookVerifier(secrets: [secret]).verify(
                body: body.readableBytesView, header: { name in HTTPField.Name(name).flatMap { request.headers[$0] } },
                now: now())
        } catch {
            state.withLock { $0.refused += 1 }
            return Response(status: .unauthorized)
        }
        let attempt = state.withLock { state in
            state.posts.append(Post(id: verified.id, event: verified.event))
            return state.posts.filter { $0.id == verified.id }.count
        }
        switch behaviour(verified.event, attempt) {
        case .status(let status):
            return Response(status: status)
        case .ok:
            apply(verified)
            return Response(status: .noContent)
        case .slow(let delay):
            apply(verified)
            try? await Task.sleep(for: delay)
            return Response(status: .noContent)
        case .held(let released):
            apply(verified)
            let deadline = ContinuousClock.now + .seconds(60)
            while !released(), ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(20)) }
            return Response(status: .noContent)
        }
    }

    private func apply(_ webhook: VerifiedWebhook) {
        state.withLock { state in
            guard state.applied.insert(webhook.id).inserted, let transaction = webhook.event.transaction else { return }
            for (currency, amount) in transaction.grants {
                state.balances[currency + ":" + transaction.userId, default: 0] += amount
            }
        }
    }

    /// The balance the backend holds for `user` in `currency`.
    func balance(_ user: String, _ currency: String = "gold") -> Int64 {
        state.withLock { $0.balances[currency + ":" + user] ?? 0 }
    }
}
