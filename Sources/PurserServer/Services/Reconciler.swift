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

        public var description: String {
            "scanned \(scanned), credited \(credited), revoked \(revoked), unbound \(unbound), "
                + "already known \(alreadyKnown), notifications replayed \(notificationsReplayed)"
        }
    }

    let api: AppStoreServerAPIClient
    let notifications: NotificationService
    /// How far back the first run looks in Notification History (Apple keeps 180 days).
    let firstLookBack: TimeInterval
    private let now: @Sendable () -> Date

    public init(api: AppStoreServerAPIClient, notifications: NotificationService, firstLookBack: TimeInterval = 30 * 86_400,
                now: @escaping @Sendable () -> Date = { Date() }) {
        self.api = api
        self.notifications = notifications
        self.firstLookBack = firstLookBack
        self.now = now
    }

    static let notificationCursor = "notification-history.end"

    public func run(progress: @Sendable (String) -> Void = { _ in }) async throws -> Summary {
        var summary = Summary()
        let store = notifications.submissions.store
        // 1. Notifications Apple sent (or failed to send) since the last run.
        let end = now()
        let start = try await store.cursor(Self.notificationCursor).flatMap(Double.init).map(Date.init(timeIntervalSince1970:))
            ?? end.addingTimeInterval(-firstLookBack)
        var token: String?
        repeat {
            let page = try await api.getNotificationHistory(.init(startDate: start.addingTimeInterval(-60), endDate: end),
                                                            paginationToken: token)
            for item in page.notificationHistory {
                let outcome = try await notifications.receive(signedPayload: item.signedPayload)
                if !outcome.duplicate { summary.notificationsReplayed += 1 }
            }
            token = page.hasMore ? page.paginationToken : nil
        } while token != nil
        try await store.setCursor(Self.notificationCursor, to: String(end.timeIntervalSince1970), now: now())
        progress("notification history: \(summary.notificationsReplayed) replayed")

        // 2. Each known customer's transaction history from where the last run stopped.
        let anchors = try await store.historyAnchors()
        for (index, anchor) in anchors.enumerated() {
            let cursor = "transaction-history.\(anchor)"
            let history = try await api.getAllTransactionHistory(transactionID: anchor,
                                                                 startingAt: try await store.cursor(cursor))
            for jws in history.signedTransactions {
                summary.scanned += 1
                try await reconcile(jws, into: &summary)
            }
            if let revision = history.revision { try await store.setCursor(cursor, to: revision, now: now()) }
            progress("transaction history \(index + 1)/\(anchors.count): \(summary)")
        }
        return summary
    }

    private func reconcile(_ jws: String, into summary: inout Summary) async throws {
        let submissions = notifications.submissions
        let payload: JWSTransaction
        do {
            payload = try await submissions.verifier.verifyTransaction(jws)
        } catch {
            return  // not this app's, or not verifiable: nothing to credit
        }
        let store = submissions.store
        let known = try await store.transaction(payload.transactionId)
        if let revocation = payload.revocationDate, known?.state == .credited {
            if case .applied = try await store.revoke(transactionID: payload.transactionId,
                                                      revocationDate: Date(appStoreMilliseconds: revocation),
                                                      cause: "reconciliation", now: now()) {
                summary.revoked += 1
            }
            return
        }
        guard known == nil || known?.state == .unbound else {
            summary.alreadyKnown += 1
            return
        }
        let settlement = try await submissions.settle(payload, source: .reconciliation)
        switch settlement.decision {
        case .delivered, .deliveredToOtherAccount: summary.credited += 1
        case .pending: summary.unbound += 1
        default: summary.alreadyKnown += 1
        }
    }
}
