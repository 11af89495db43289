import Foundation
import Purser
import PurserCore
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The game's own backend spending its players' gold through Purser's admin API, as a shop would: a spend, or a hold
/// it then captures in part, voids or leaves to expire. Like a real backend it sends every request again, with the
/// same id, until it gets an answer (a replica killed mid-request, a 503), and under `spend-retry` it sends each one
/// 1-3 more times on purpose, once at the same moment as the first. It keeps what it saw taken, per user, for the
/// wallet invariants.
final class SpendingBackend: Sendable {
    /// What it did, for the report.
    struct Tally: Sendable, Hashable, Codable {
        var spends = 0
        /// Spends and holds refused because the available balance could not cover them.
        var refused = 0
        var holds = 0
        var captured = 0
        var voided = 0
        /// Holds left to expire.
        var expiring = 0
        /// Requests sent again on purpose (`spend-retry`).
        var replays = 0
        /// Requests that never got an answer, even after the faults stopped.
        var unanswered = 0
    }

    private struct State {
        /// Gold the backend saw taken from each user (spends and captures), once per id.
        var taken: [String: Int64] = [:]
        /// Per id: how many answers said it applied now (not `replayed`).
        var appliedAnswers: [String: Int] = [:]
        var tally = Tally()
    }

    let url: URL
    let token: String
    /// The game's app, named in `X-Purser-App` (a studio run has a backend per app).
    let app: String
    let transport: any PurserHTTPTransport
    private let state = Mutex(State())

    init(url: URL, token: String, app: String, transport: any PurserHTTPTransport) {
        self.url = url
        self.token = token
        self.app = app
        self.transport = transport
    }

    var tally: Tally { state.withLock { $0.tally } }
    /// Gold the backend saw taken from `user`.
    func taken(from user: String) -> Int64 { state.withLock { $0.taken[user] ?? 0 } }
    /// The ids that more than one answer said applied now: each must apply once.
    var appliedTwice: [String: Int] { state.withLock { $0.appliedAnswers.filter { $0.value > 1 } } }

    /// Carries out `operation` on `user`'s wallet.
    func perform(_ operation: PlannedWalletOperation, for user: String) async {
        let gold = #"{"gold": \#(operation.amount)}"#
        switch operation.kind {
        case .spend:
            let body = #"{"id": "\#(operation.id)", "amounts": {"gold": -\#(operation.amount)}, "reason": "shop"}"#
            let answers = await send("/admin/v1/wallets/\(user)/transactions", body, replays: operation.replays)
            record(answers, id: operation.id, user: user) { $0 == 200 ? \.spends : nil }
        case .holdThenCapture(let percent):
            guard await hold(operation, user: user, gold: gold, seconds: 600) else { return }
            let part = max(1, operation.amount * Int64(percent) / 100)
            let answers = await send(
                "/admin/v1/holds/\(operation.id)/capture", #"{"amounts": {"gold": \#(part)}}"#,
                replays: operation.replays)
            record(answers, id: "hold:\(operation.id)", user: user) { $0 == 200 ? \.captured : nil }
        case .holdThenVoid:
            guard await hold(operation, user: user, gold: gold, seconds: 600) else { return }
            let answers = await send("/admin/v1/holds/\(operation.id)/void", "{}", replays: operation.replays)
            if answers.first?.status == 200 { state.withLock { $0.tally.voided += 1 } }
        case .holdToExpire:
            if await hold(operation, user: user, gold: gold, seconds: 1) { state.withLock { $0.tally.expiring += 1 } }
        }
    }

    /// Places the hold; whether it was placed.
    private func hold(_ operation: PlannedWalletOperation, user: String, gold: String, seconds: Int) async -> Bool {
        let body =
            #"{"id": "\#(operation.id)", "amounts": \#(gold), "expiresInSeconds": \#(seconds), "reason": "checkout"}"#
        let answers = await send("/admin/v1/wallets/\(user)/holds", body, replays: operation.replays)
        record(answers, id: nil, user: user) { $0 == 200 ? \.holds : nil }
        return answers.first?.status == 200
    }

    /// One answer: its status and body.
    struct Answer: Sendable {
        var status: Int
        var body: Data
    }

    /// Sends `body` to `path`, and `replays` more times with the same body (the first of them at the same moment);
    /// every answer, the first send's first.
    private func send(_ path: String, _ body: String, replays: Int) async -> [Answer] {
        if replays > 0 { state.withLock { $0.tally.replays += replays } }
        async let first = answered(path, body)
        async let duplicate = replays > 0 ? answered(path, body) : nil
        var answers = [await first, await duplicate].compactMap { $0 }
        for _ in 1..<max(replays, 1) {
            if let again = await answered(path, body) { answers.append(again) }
        }
        return answers
    }

    /// Sends until an answer that is not a 5xx or 429 comes (at most about 20 seconds), as a backend with a retry
    /// loop would; nil when none came.
    private func answered(_ path: String, _ body: String) async -> Answer? {
        var request = URLRequest(url: url.appendingPathComponent(path))
        request.httpMethod = "POST"
        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        request.setValue("chaos-game-backend", forHTTPHeaderField: "X-Purser-Operator")
        request.setValue(app, forHTTPHeaderField: "X-Purser-App")
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(body.utf8)
        for _ in 0..<400 {
            if let (data, status) = try? await transport.send(request), status < 500, status != 429 {
                return Answer(status: status, body: data)
            }
            try? await Task.sleep(for: .milliseconds(50))
        }
        state.withLock { $0.tally.unanswered += 1 }
        return nil
    }

    /// Counts what the answers to one request say: each 200 that is not `replayed` is an application of `id`, and
    /// the first 200 takes its `gold` (negative amounts) from `user`; `counter` names the tally to count it in.
    private func record(
        _ answers: [Answer], id: String?, user: String, counter: (Int) -> WritableKeyPath<Tally, Int>?
    ) {
        struct Applied: Decodable {
            var amounts: [String: Int64]?
            var captured: [String: Int64]?
            var replayed: Bool
        }
        let decoded = answers.filter { $0.status == 200 }.compactMap {
            try? JSONDecoder().decode(Applied.self, from: $0.body)
        }
        state.withLock { state in
            var took = false
            for applied in decoded {
                if !applied.replayed, let id { state.appliedAnswers[id, default: 0] += 1 }
                guard !took, let id else { continue }
                took = true
                let gold = id.hasPrefix("hold:") ? (applied.captured?["gold"] ?? 0) : -(applied.amounts?["gold"] ?? 0)
                state.taken[user, default: 0] += gold
            }
            if let status = answers.first?.status {
                if let counter = counter(status) { state.tally[keyPath: counter] += 1 }
                if status == 422 { state.tally.refused += 1 }
            }
        }
    }
}
