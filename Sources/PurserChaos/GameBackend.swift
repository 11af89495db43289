import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import PurserWebhooks
import Synchronization

/// The game's own backend in a chaos run: it receives Purser's webhooks over HTTP in the harness process, verifies
/// each (Standard Webhooks, against the run's clock), and applies every event once per `webhook-id` to the balances
/// it keeps, per app (the body's `bundleId`), as a game studio's one receiver that trusts the webhooks would: a
/// studio run (`--apps`) sends every app's events to this one receiver. An id that arrives again with another body
/// is not applied (the receiver cannot tell it from a retry) and is recorded: Purser gave two events one id. The
/// `webhook-receiver` family makes it answer 503 as if down, answer 500, or stall past the sender's time-out after
/// applying (so the retry is a duplicate it must ignore).
public final class GameBackend: Sendable {
    /// What the next few posts meet.
    public struct Fault: Sendable, Hashable, Codable {
        public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
            /// 503 without applying: the backend is down behind its load balancer.
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

    /// What the backend saw of one app's events.
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

    /// A `webhook-id` that arrived with two different bodies: the apps the two bodies named, and their types.
    public struct ReusedID: Sendable, Hashable {
        public var id: String
        public var first: String
        public var second: String
    }

    /// One app's books.
    fileprivate struct Book {
        var balances: [String: Int64] = [:]
        /// The transactions the applied events were about.
        var transactions: Set<String> = []
        var counts = Counts()
    }

    private struct State {
        var books: [String: Book] = [:]
        /// Every applied id, with its body's digest and a description of it (app, type).
        var applied: [String: (digest: SHA256.Digest, what: String)] = [:]
        var reused: [ReusedID] = []
        var faults: [Fault.Kind] = []
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

    /// The account's balance in the run's only currency, as the game backend holds it for `app`.
    func balance(of user: String, app: String) -> Int64 {
        state.withLock { $0.books[app]?.balances[user] ?? 0 }
    }

    /// What the backend saw of `app`'s events.
    func counts(app: String) -> Counts { state.withLock { $0.books[app]?.counts ?? Counts() } }
    /// Every transaction an applied event of `app` was about.
    func transactionIDs(app: String) -> Set<String> { state.withLock { $0.books[app]?.transactions ?? [] } }
    /// Ids that arrived with two different bodies, one of them `app`'s.
    func reusedIDs(app: String) -> [ReusedID] {
        state.withLock { $0.reused.filter { $0.first.hasPrefix(app + " ") || $0.second.hasPrefix(app + " ") } }
    }

    /// The backend's HTTP application: `POST /purser/webhooks`.
    func application(onServerRunning: @escaping @Sendable (Int) async -> Void) -> some ApplicationProtocol {
        let router = Router()
        router.post("purser/webhooks") { request, _ in try await self.receive(request) }
        return Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { await onServerRunning($0.localAddress?.port ?? 0) })
    }

    /// The one field of a post `receive` reads before verifying it.
    private struct Addressee: Decodable {
        var bundleId: String?
    }

    private func receive(_ request: Request) async throws -> Response {
        let body = try await request.body.collect(upTo: 1 << 20)
        // The app whose book counts this post: read unverified, for counting only (`apply` uses the verified event);
        // only its one field is decoded, as the verifier decodes the whole event again.
        let app = (try? JSONDecoder().decode(Addressee.self, from: Data(body.readableBytesView)))?.bundleId ?? ""
        let fault = state.withLock { state -> Fault.Kind? in
            state.books[app, default: Book()].counts.posts += 1
            guard !state.faults.isEmpty else { return nil }
            state.books[app, default: Book()].counts.faulted += 1
            return state.faults.removeFirst()
        }
        if fault == .down { return Response(status: .serviceUnavailable) }
        if fault == .error { return Response(status: .internalServerError) }
        let verified: VerifiedWebhook
        do {
            verified = try verifier.verify(
                body: body.readableBytesView, header: { name in HTTPField.Name(name).flatMap { request.headers[$0] } },
                now: clock.now())
        } catch {
            state.withLock { $0.books[app, default: Book()].counts.refused += 1 }
            return Response(status: .unauthorized)
        }
        apply(verified, digest: SHA256.hash(data: Data(body.readableBytesView)))
        if fault == .stall { try? await Task.sleep(for: stall) }
        return Response(status: .noContent)
    }

    /// Applies an event once per `webhook-id`, to its app's book: its grants, or a wallet change's amounts
    /// (signed), to its user's balance. The same id with another body is recorded, not applied.
    private func apply(_ webhook: VerifiedWebhook, digest: SHA256.Digest) {
        let app = webhook.event.bundleId ?? ""
        let what = "\(app) \(webhook.event.type)"
        state.withLock { state in
            if let earlier = state.applied[webhook.id] {
                state.books[app, default: Book()].counts.duplicates += 1
                if earlier.digest != digest {
                    state.reused.append(ReusedID(id: webhook.id, first: earlier.what, second: what))
                }
                return
            }
            state.applied[webhook.id] = (digest, what)
            // In place: a copy of the book would copy its every transaction, once per event.
            state.books[app, default: Book()].apply(webhook.event)
        }
    }
}

extension GameBackend.Book {
    /// One event's grants, or a wallet change's amounts (signed), added to its user's balance.
    fileprivate mutating func apply(_ event: WebhookEvent) {
        counts.applied += 1
        if let transaction = event.transaction {
            transactions.insert(transaction.transactionId)
            balances[transaction.userId, default: 0] += transaction.grants["gold"] ?? 0
        }
        if let change = event.walletChange {
            balances[change.userId, default: 0] += change.amounts["gold"] ?? 0
        }
    }
}
