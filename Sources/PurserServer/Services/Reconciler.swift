import AppStoreVerification
import Foundation
import Logging
import PurserCore
import PurserStorage

/// Catches up with Apple when devices and notifications did not: replays Notification History since the last run
/// (each notification is de-duplicated by UUID, so nothing is credited twice), then walks each known customer's
/// Transaction History v2 from the last revision seen and settles what the ledger lacks, revoking what Apple refunded.
/// Idempotent and resumable: cursors are saved after every step.
public struct Reconciler: Sendable {
    /// What one run did.
    public struct Summary: Codable, Sendable, Hashable, CustomStringConvertible {
        public var notificationsReplayed = 0
        public var scanned = 0
        public var credited = 0
        public var revoked = 0
        public var unbound = 0
        public var alreadyKnown = 0
        /// Accounts skipped because neither of Apple's hosts knew their latest transaction (`transaction_id_not_found`).
        public var historiesNotFound = 0

        public init() {}

        public var description: String {
            "scanned \(scanned), credited \(credited), revoked \(revoked), unbound \(unbound), "
                + "already known \(alreadyKnown), notifications replayed \(notificationsReplayed)"
                + (historiesNotFound > 0 ? ", histories Apple does not know \(historiesNotFound)" : "")
        }

        /// Reads summaries written before `historiesNotFound` existed too (the ledger's last run).
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            notificationsReplayed = try container.decode(Int.self, forKey: .notificationsReplayed)
            scanned = try container.decode(Int.self, forKey: .scanned)
            credited = try container.decode(Int.self, forKey: .credited)
            revoked = try container.decode(Int.self, forKey: .revoked)
            unbound = try container.decode(Int.self, forKey: .unbound)
            alreadyKnown = try container.decode(Int.self, forKey: .alreadyKnown)
            historiesNotFound = try container.decodeIfPresent(Int.self, forKey: .historiesNotFound) ?? 0
        }
    }

    let api: AppStoreServerAPIClient
    /// Apple's sandbox host, asked for a history the production host does not know (a TestFlight or sandbox
    /// account in a ledger that serves both environments).
    let sandboxAPI: AppStoreServerAPIClient?
    let notifications: NotificationService
    /// How far back the first run looks in Notification History (Apple keeps 180 days).
    let firstLookBack: TimeInterval
    /// How many transactions of one history are settled at a time (each is a different transaction).
    let concurrency: Int
    /// How many Apple accounts' histories are walked at a time (each is a different history).
    let histories: Int
    let now: @Sendable () -> Date

    public init(
        api: AppStoreServerAPIClient, sandboxAPI: AppStoreServerAPIClient? = nil, notifications: NotificationService,
        firstLookBack: TimeInterval = 30 * 86_400, concurrency: Int = 8, histories: Int = 4,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.api = api
        self.sandboxAPI = sandboxAPI
        self.notifications = notifications
        self.firstLookBack = firstLookBack
        self.concurrency = max(1, concurrency)
        self.histories = max(1, histories)
        self.now = now
    }

    static let notificationCursor = "notification-history.end"

    public func run(progress: @Sendable (String) -> Void = { _ in }) async throws -> Summary {
        var summary = Summary()
        let store = notifications.submissions.store
        // 1. Notifications Apple failed to send since the last run (Purser answers 2xx only once a notification is
        // in the ledger, so what reached it needs no replay); the first run reads every one sent in its look-back,
        // as a new ledger may follow another receiver.
        let end = now()
        let last = try await store.cursor(Self.notificationCursor).flatMap(Double.init)
            .map(Date.init(timeIntervalSince1970:))
        let start = last ?? end.addingTimeInterval(-firstLookBack)
        var token: String?
        repeat {
            let page = try await api.getNotificationHistory(
                .init(startDate: start.addingTimeInterval(-60), endDate: end, onlyFailures: last == nil ? nil : true),
                paginationToken: token)
            // Notifications already processed are skipped before the costly verification. The UUID is read from
            // the unverified payload only to skip: a forged one could at most skip itself, never credit.
            let uuids = page.notificationHistory.map {
                SignedDataVerifier.unverifiedNotificationUUID(of: $0.signedPayload)
            }
            let processed = try await store.processedNotifications(among: uuids.compactMap { $0 })
            for (item, uuid) in zip(page.notificationHistory, uuids) {
                if let uuid, processed.contains(uuid) { continue }
                let outcome = try await notifications.receive(signedPayload: item.signedPayload)
                if !outcome.duplicate { summary.notificationsReplayed += 1 }
            }
            token = page.hasMore ? page.paginationToken : nil
        } while token != nil
        try await store.setCursor(Self.notificationCursor, to: String(end.timeIntervalSince1970), now: now())
        progress("notification history: \(summary.notificationsReplayed) replayed")

        // 2. Each account's transaction history from where the last run stopped (`catchUp`). Accounts that bought
        // under one Apple ID share its history: they are walked one after another, and an anchor already seen in a
        // history walked this run is not walked again; other Apple IDs' histories are walked beside them.
        let anchors = try await store.historyAnchors()
        let walked = WalkedHistories()
        var finished = 0
        let reconciled = summary
        summary.add(
            try await Self.forEachAccount(of: anchors, limit: histories) { anchor in
                try await catchUp(anchor, walked: walked)
            } finished: { accounts, total in
                let before = finished
                finished += accounts
                if finished / 50 > before / 50 || finished == anchors.count {
                    var sofar = reconciled
                    sofar.add(total)
                    progress("transaction history \(finished)/\(anchors.count): \(sofar)")
                }
            })
        try await remember(summary, in: store)
        return summary
    }

    /// What reconciling one transaction did.
    enum Outcome: Sendable {
        case unverifiable, credited, unbound, alreadyKnown, revoked, unchanged
    }

    /// Settles the transactions of one history, `concurrency` at a time; returns each one's id (nil when it does
    /// not verify) and outcome.
    func reconcile(_ transactions: [String]) async throws -> [(id: String?, outcome: Outcome)] {
        try await withThrowingTaskGroup(of: (id: String?, outcome: Outcome).self) { group in
            var next = transactions.makeIterator()
            for _ in 0..<concurrency {
                guard let jws = next.next() else { break }
                group.addTask { try await reconcile(jws) }
            }
            var results: [(id: String?, outcome: Outcome)] = []
            while let result = try await group.next() {
                results.append(result)
                if let jws = next.next() { group.addTask { try await reconcile(jws) } }
            }
            return results
        }
    }

    /// Settles one transaction of a history: credits what the ledger lacks, revokes what Apple refunded.
    private func reconcile(_ jws: String) async throws -> (id: String?, outcome: Outcome) {
        let submissions = notifications.submissions
        // Most of a history is what the ledger already holds as Apple describes it: skipped before the costly
        // verification. The claim is read unverified only to skip: a forged one could at most skip itself.
        if let claim = SignedDataVerifier.unverifiedTransactionClaim(of: jws), !claim.revoked,
            let state = try await submissions.store.transaction(claim.transactionID)?.state, state != .unbound
        {
            return (claim.transactionID, .alreadyKnown)
        }
        let payload: JWSTransaction
        do {
            payload = try await submissions.verifier.verifyTransaction(jws)
        } catch {
            return (nil, .unverifiable)  // not this app's, or not verifiable: nothing to credit
        }
        let store = submissions.store
        var known = try await store.transaction(payload.transactionId)
        if payload.revocationDate != nil, let state = known?.state {
            // A refund the ledger missed, or a larger share of a partial one; on a transaction not credited yet
            // (unbound, refused) the ledger notes Apple's share, for the credit that binds it to take back.
            switch try await store.revoke(submissions.revocation(of: payload, cause: "reconciliation"), now: now()) {
            case .applied: return (payload.transactionId, .revoked)
            case .noted: known = try await store.transaction(payload.transactionId)
            case .unchanged, .unknownTransaction: break
            }
            if state == .credited || state == .revoked {
                return (payload.transactionId, state == .revoked ? .alreadyKnown : .unchanged)
            }
        }
        guard known == nil || known?.state == .unbound else { return (payload.transactionId, .alreadyKnown) }
        let settlement = try await submissions.settle(payload, source: .reconciliation)
        switch settlement.decision {
        case .delivered, .deliveredToOtherAccount: return (payload.transactionId, .credited)
        case .pending: return (payload.transactionId, .unbound)
        default: return (payload.transactionId, .alreadyKnown)
        }
    }
}

extension Reconciler.Summary {
    mutating func add(_ other: Self) {
        notificationsReplayed += other.notificationsReplayed
        scanned += other.scanned
        credited += other.credited
        revoked += other.revoked
        unbound += other.unbound
        alreadyKnown += other.alreadyKnown
        historiesNotFound += other.historiesNotFound
    }

    mutating func count(_ outcome: Reconciler.Outcome) {
        switch outcome {
        case .credited: credited += 1
        case .unbound: unbound += 1
        case .alreadyKnown: alreadyKnown += 1
        case .revoked: revoked += 1
        case .unverifiable, .unchanged: break
        }
    }
}
