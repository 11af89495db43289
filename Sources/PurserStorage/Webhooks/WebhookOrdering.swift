/// Ordered delivery (`webhooks.endpoints[].ordered`): the condition both stores add to their claim of an ordered
/// endpoint's deliveries, so one user's events reach it one at a time in `sequence` order while other users' events
/// go on.
///
/// A delivery (of outbox event `o`) is held back while an earlier event of the same user (a lower `sequence`)
///   - is not fanned out yet (`dispatched_at IS NULL`: with several replicas a later one can be fanned out first), or
///   - has a delivery to the same endpoint that is still `pending` or `failed` (claimed or not).
///
/// A fanned-out earlier event that is delivered or dead, or that the endpoint does not take (its `events`), holds
/// nothing back. So at most one event per user and endpoint is in flight, and a later one is claimed only once the
/// earlier one's success or death is recorded. A replayed event is pending again: it waits for the user's earlier
/// events that are still pending, and holds back the user's later ones until it is delivered or dead again.
///
/// Cost, with the indexes of migration 4 and none of its own: the rule walks the user's earlier events through
/// `outbox_user_sequence (user_id, sequence)` and probes each one's delivery through the unique `(event_id,
/// endpoint)` index, in proportion to the user's history. A held delivery stays due, so every claim looks at it
/// again; probing the user's immediately preceding event first (held at once when its delivery here is pending or
/// failed: a user's queue behind a failing event) makes that one probe. With 2,000 users of 200 events each and
/// 8,000 deliveries held, a claim that finds nothing took about 30 ms on PostgreSQL and on SQLite, against 0.5 s and
/// 1.2 s for the rule alone. Only ordered endpoints pay any of it.
enum WebhookOrdering {
    /// Whether delivery `d` (a `webhook_deliveries` row) may go, in the SQL both stores speak: its event `o`, then
    /// the shortcut on the immediately preceding event, then the rule itself.
    static let condition = """
        EXISTS (
            SELECT 1 FROM outbox o
            WHERE o.id = d.event_id
              AND NOT EXISTS (
                    SELECT 1 FROM outbox previous
                    JOIN webhook_deliveries p ON p.event_id = previous.id AND p.endpoint = d.endpoint
                    WHERE previous.user_id = o.user_id AND previous.sequence = o.sequence - 1
                      AND p.status IN ('pending', 'failed'))
              AND NOT EXISTS (
                    SELECT 1 FROM outbox earlier
                    WHERE earlier.user_id = o.user_id AND earlier.sequence < o.sequence
                      AND (earlier.dispatched_at IS NULL
                           OR EXISTS (SELECT 1 FROM webhook_deliveries w
                                      WHERE w.event_id = earlier.id AND w.endpoint = d.endpoint
                                        AND w.status IN ('pending', 'failed')))))
        """

    /// `AND` and the condition when `ordered`, nothing otherwise.
    static func clause(ordered: Bool) -> String { ordered ? "AND " + condition : "" }
}
