import Foundation
import HTTPTypes
import Hummingbird
import PurserWebhooks
import Synchronization

/// The game's own backend in a chaos run: it receives Purser's webhooks over HTTP in the harness process, verifies
/// each (Standard Webhooks, against the run's clock), and applies every event once per `webhook-id` to the balances
/// it keeps, as a game that trusts the webhooks would. The `webhook-receiver` family makes it answer 503 as if down,
/// answer 500, or stall past the sender's time-out after applying (so the retry is a duplicate it must ignore).
public final class GameBackend: Sendable {
    /// What the next few posts meet.
    public struct Fault: Sendable, Hashable, Codable {
        public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
            /// 503 before anything is read: the backend is down behind its load balancer.
            case down
            /// 500 without applying: the backend failed.
            case error
            /// Applies, then answers only after the sender gave up.
            case stall
        }
        public var kind: Kind
        /// How many posts in a row meet it.
        public var posts: Int
    }

    /// What the backend saw.
    public struct Counts: Sendable, Hashable, Codable {
        public var posts = 0
        /// Events applied (distinct `webhook-id`s).
        public var applied = 0
        /// Posts of an event already applied, ignored.
        public var duplicates = 0
        /// Posts answered 503, 500 or stalled by the fault family.
        public var faulted = 0
        /// Posts whose signature or timestamp did not verify (none, unless Purser signs wrongly).
        public var refused = 0
    }

    private struct State {
        var balances: [String: Int64] = [:]
        var applied: Set<String> = []
        /// The transactions the applied events were about.
        var transactions: Set<String> = []
        var faults: [Fault.Kind] = []
        var counts = Counts()
    }

    let secret: WebhookSecret
    private let verifier: WebhookVerifier
    private let clock: ChaosClock
    /// How long a stall holds its answer: longer than the sender's time-out.
    let stall: Duration
    private let state = Mutex(State())

    init(secret: WebhookSecret = .generate(), clock: ChaosClock, stall: Duration) {
        self.secret = secret
        // The heal phase moves the run's clock a day at a time, so an attempt signed just before a step arrives a
        // day "late": the usual five minutes of tolerance on top of the step (a real clock does not jump).
        self.verifier = WebhookVerifier(secrets: [secret], tolerance: .seconds(ChaosClock.healStep + 300))
        self.clock = clock
        self.stall = stall
    }

    /// The next `fault.posts` posts meet `fault.kind` (after any already queued).
    func inject(_ fault: Fault) {
        state.withLock { $0.faults += Array(repeating: fault.kind, count: fault.posts) }
    }

    /// Faults stop (the heal phase).
    func heal() { state.withLock { $0.faults.removeAll() } }

    /// The account's balance in the run's only currency, as the game backend holds it.
    func balance(of user: String) -> Int64 { state.withLock { $0.balances[user] ?? 0 } }

    var counts: Counts { state.withLock { $0.counts } }
    /// Every transaction an applied event was about.
    var transactionIDs: Set<String> { state.withLock { $0.transactions } }

    /// The backend's HTTP application: `POST /purser/webhooks`.
    func application(onServerRunning: @escaping @Sendable (Int) async -> Void) -> some ApplicationProtocol {
        let router = Router()
        router.post("purser/webhooks") { request, _ in try await self.receive(request) }
        return Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { await onServerRunning($0.localAddress?.port ?? 0) })
    }

    private func receive(_ request: Request) async throws -> Response {
        let fault = state.withLock { state -> Fault.Kind? in
            state.counts.posts += 1
            guard !state.faults.isEmpty else { return nil }
            state.counts.faulted += 1
            return state.faults.removeFirst()
        }
        if fault == .down { return Response(status: .serviceUnavailable) }
        let body = try await request.body.collect(upTo: 1 << 20)
        if fault == .error { return Response(status: .internalServerError) }
        let verified: VerifiedWebhook
        do {
            verified = try verifier.verify(
                body: body.readableBytesView, header: { name in HTTPField.Name(name).flatMap { request.headers[$0] } },
                now: clock.now())
        } catch {
            state.withLock { $0.counts.refused += 1 }
            return Response(status: .unauthorized)
        }
        apply(verified)
        if fault == .stall { try? await Task.sleep(for: stall) }
        return Response(status: .noContent)
    }

    /// Applies an event once per `webhook-id`: its grants, or a wallet change's amounts (signed), to its user's
    /// balance.
    private func apply(_ webhook: VerifiedWebhook) {
        state.withLock { state in
            guard state.applied.insert(webhook.id).inserted else {
                state.counts.duplicates += 1
                return
            }
            state.counts.applied += 1
            if let transaction = webhook.event.transaction {
                state.transactions.insert(transaction.transactionId)
                state.balances[transaction.userId, default: 0] += transaction.grants["gold"] ?? 0
            }
            if let change = webhook.event.walletChange {
                state.balances[change.userId, default: 0] += change.amounts["gold"] ?? 0
            }
        }
    }
}
