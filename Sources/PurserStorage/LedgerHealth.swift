import Foundation

/// What waits in the ledger, for operators' gauges and alerts: transactions no order binds yet, orders still waiting
/// for their payment, and webhook events not yet delivered, each with the moment its oldest entry was recorded.
public struct LedgerHealth: Hashable, Sendable {
    /// How many entries wait, and since when the oldest does (`nil` when none).
    public struct Backlog: Hashable, Sendable {
        public var count: Int
        public var oldest: Date?

        public init(count: Int, oldest: Date?) {
            self.count = count
            self.oldest = oldest
        }

        /// Seconds the oldest entry has waited at `now`; 0 when nothing waits.
        public func oldestAge(at now: Date) -> Double {
            oldest.map { max(0, now.timeIntervalSince($0)) } ?? 0
        }
    }

    /// Genuine transactions that no order binds to an account yet (support's queue), by when they were recorded.
    public var unbound: Backlog
    /// Orders created and neither delivered nor cancelled: payments under way, and checkouts the user abandoned.
    public var waitingOrders: Backlog
    /// Outbox events not yet fanned out to the webhook endpoints (all of them while none is configured).
    public var undispatchedEvents: Backlog
    /// Webhook deliveries pending or failed (to be retried), by when their event was recorded.
    public var undeliveredEvents: Backlog
    /// Webhook deliveries that ran out of retries (kept, replayable).
    public var deadEvents: Int
    /// Wallet holds not captured, voided or expired yet, by when they were placed (an expired one counts until the
    /// sweep, every few seconds, expires it).
    public var openHolds: Backlog

    public init(
        unbound: Backlog, waitingOrders: Backlog, undispatchedEvents: Backlog, undeliveredEvents: Backlog,
        deadEvents: Int, openHolds: Backlog = Backlog(count: 0, oldest: nil)
    ) {
        self.unbound = unbound
        self.waitingOrders = waitingOrders
        self.undispatchedEvents = undispatchedEvents
        self.undeliveredEvents = undeliveredEvents
        self.deadEvents = deadEvents
        self.openHolds = openHolds
    }

    /// The one query both stores run (standard SQL): counts and oldest times in milliseconds, one row.
    static let query = """
        SELECT (SELECT COUNT(*) FROM apple_transactions WHERE state = 'unbound') AS unbound,
               (SELECT MIN(recorded_at) FROM apple_transactions WHERE state = 'unbound') AS unbound_oldest,
               (SELECT COUNT(*) FROM orders WHERE state = 'created') AS waiting,
               (SELECT MIN(created_at) FROM orders WHERE state = 'created') AS waiting_oldest,
               (SELECT COUNT(*) FROM outbox WHERE dispatched_at IS NULL) AS undispatched,
               (SELECT MIN(created_at) FROM outbox WHERE dispatched_at IS NULL) AS undispatched_oldest,
               (SELECT COUNT(*) FROM webhook_deliveries WHERE status IN ('pending', 'failed')) AS undelivered,
               (SELECT MIN(o.created_at) FROM webhook_deliveries d JOIN outbox o ON o.id = d.event_id
                WHERE d.status IN ('pending', 'failed')) AS undelivered_oldest,
               (SELECT COUNT(*) FROM webhook_deliveries WHERE status = 'dead') AS dead,
               (SELECT COUNT(*) FROM wallet_holds WHERE state = 'open') AS holds,
               (SELECT MIN(created_at) FROM wallet_holds WHERE state = 'open') AS holds_oldest
        """
}
