/// What retention removed in one pass (`LedgerStore.prune`): nothing financial, only what is kept for a while.
public struct LedgerPruning: Hashable, Sendable, Codable {
    /// Webhook events whose payload was dropped: every delivery delivered, recorded before the cutoff. The event row
    /// stays (its id, type, user and sequence), so the ledger check still finds each credit's event.
    public var eventPayloads: Int
    /// Processed App Store notifications received before the cutoff (their de-duplication records; Apple retries a
    /// notification for days, not months). The newest is always kept: it tells when Apple last spoke.
    public var notifications: Int
    /// Leases that expired before the cutoff (work nobody has run since).
    public var leases: Int
    /// Trace links recorded before the cutoff (a tracing backend keeps its traces for days or weeks, not longer).
    public var traceLinks: Int

    public init(eventPayloads: Int = 0, notifications: Int = 0, leases: Int = 0, traceLinks: Int = 0) {
        self.eventPayloads = eventPayloads
        self.notifications = notifications
        self.leases = leases
        self.traceLinks = traceLinks
    }

    /// Rows changed or removed in all.
    public var total: Int { eventPayloads + notifications + leases + traceLinks }
}

/// Retention's SQL, standard SQL both stores run. Transactions, grants, wallet rows, holds, orders and the audit log
/// are never pruned: they are the accounts.
enum LedgerRetention {
    /// Migration 12: when an event's payload was pruned, and the indexes that keep each pass short.
    static let migration = [
        "ALTER TABLE outbox ADD COLUMN pruned_at BIGINT",
        "CREATE INDEX outbox_unpruned ON outbox (id) WHERE pruned_at IS NULL AND dispatched_at IS NOT NULL",
        "CREATE INDEX notifications_received ON notifications (received_at)",
    ]

    /// The payload a pruned event keeps: an empty object (the column is `NOT NULL`).
    static let prunedPayload = "{}"

    /// The statements of one pass, in order, each changing at most `limit` rows and returning one row per row it
    /// changed: payloads, notifications, leases, trace links. All numbers are inlined integers.
    static func statements(before cutoff: Int64, now: Int64, limit: Int) -> [String] {
        [
            """
            UPDATE outbox SET payload = '\(prunedPayload)', pruned_at = \(now) WHERE id IN (
                SELECT o.id FROM outbox o
                WHERE o.pruned_at IS NULL AND o.dispatched_at IS NOT NULL AND o.created_at < \(cutoff)
                  AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d
                                  WHERE d.event_id = o.id AND d.status <> 'delivered')
                ORDER BY o.id LIMIT \(limit))
            RETURNING 1
            """,
            """
            DELETE FROM notifications WHERE notification_uuid IN (
                SELECT notification_uuid FROM notifications
                WHERE processed_at IS NOT NULL AND received_at < \(cutoff)
                  AND received_at < (SELECT MAX(received_at) FROM notifications)
                ORDER BY received_at LIMIT \(limit))
            RETURNING 1
            """,
            """
            DELETE FROM leases WHERE name IN (
                SELECT name FROM leases WHERE expires_at < \(cutoff) ORDER BY expires_at LIMIT \(limit))
            RETURNING 1
            """,
            """
            DELETE FROM trace_links WHERE transaction_id IN (
                SELECT transaction_id FROM trace_links WHERE recorded_at < \(cutoff) ORDER BY recorded_at
                LIMIT \(limit))
            RETURNING 1
            """,
        ]
    }

    /// The pass's result from each statement's changed rows.
    static func pruning(_ changed: [Int]) -> LedgerPruning {
        LedgerPruning(eventPayloads: changed[0], notifications: changed[1], leases: changed[2], traceLinks: changed[3])
    }

    /// Why a pruned event is not replayed.
    static func replayRefused(_ webhookID: String) -> StorageError {
        StorageError(.pruned, "event \(webhookID) is older than the retention period and its payload was pruned")
    }
}
