import Foundation

/// What happened lately, for the support console's dashboard: the ledger's audit events since a moment, counted by
/// kind (`credited`, `recorded_unbound`, `rejected`, `revoked`, `restored`, …), and Apple's last notification.
public struct LedgerActivity: Hashable, Sendable {
    public var eventsByKind: [String: Int]
    /// When the last notification arrived, and when Apple signed it (the difference is the intake lag).
    public var lastNotificationReceivedAt: Date?
    public var lastNotificationSignedAt: Date?

    public init(eventsByKind: [String: Int], lastNotificationReceivedAt: Date?, lastNotificationSignedAt: Date?) {
        self.eventsByKind = eventsByKind
        self.lastNotificationReceivedAt = lastNotificationReceivedAt
        self.lastNotificationSignedAt = lastNotificationSignedAt
    }
}
