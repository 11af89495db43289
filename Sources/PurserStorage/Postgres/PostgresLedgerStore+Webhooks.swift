import Foundation
import PostgresNIO
import PurserCore

/// The webhook outbox on PostgreSQL: events are fanned out and deliveries claimed with `FOR UPDATE SKIP LOCKED`, so
/// replicas take disjoint batches at the same moment without waiting for each other.
extension PostgresLedgerStore {
    public func dispatchWebhookEvents(to routes: [WebhookRoute], limit: Int, now: Date) async throws -> Int {
        try await inTransaction { connection in
            let events = try await self.rows(
                connection,
                """
                UPDATE outbox SET dispatched_at = \(now.millis)
                WHERE id IN (SELECT id FROM outbox WHERE dispatched_at IS NULL ORDER BY id LIMIT \(limit)
                             FOR UPDATE SKIP LOCKED)
                RETURNING id, topic
                """)
            // RETURNING comes in no particular order: fan out in the outbox's order, so deliveries (claimed by their
            // id among those due at the same moment) go out in the order the ledger recorded the events.
            let recorded = try events.map { row in
                let columns = row.makeRandomAccess()
                return (id: try columns.int64("id"), topic: try columns.text("topic"))
            }.sorted { $0.id < $1.id }
            var eventIDs: [Int64] = []
            var endpoints: [String] = []
            for (id, topic) in recorded {
                for route in routes where route.takes(topic) {
                    eventIDs.append(id)
                    endpoints.append(route.endpoint)
                }
            }
            if !eventIDs.isEmpty {
                try await self.execute(
                    connection,
                    """
                    INSERT INTO webhook_deliveries (event_id, endpoint, status, attempts, next_attempt_at, created_at)
                    SELECT event_id, endpoint, 'pending', 0, \(now.millis), \(now.millis)
                    FROM UNNEST(\(eventIDs)::BIGINT[], \(endpoints)::TEXT[]) AS fanned (event_id, endpoint)
                    ON CONFLICT (event_id, endpoint) DO NOTHING
                    """)
            }
            return events.count
        }
    }

    public func claimWebhookDeliveries(
        endpoint: String, ordered: Bool, holder: String, until: Date, limit: Int, now: Date
    ) async throws -> [WebhookDelivery.Claim] {
        let rows = try await withConnection { connection in
            try await self.rows(
                connection,
                """
                UPDATE webhook_deliveries d SET claimed_by = \(holder), claimed_until = \(until.millis)
                FROM outbox o
                WHERE o.id = d.event_id
                  AND d.id IN (SELECT d.id FROM webhook_deliveries d
                               WHERE d.endpoint = \(endpoint) AND d.status IN ('pending', 'failed')
                                 AND d.next_attempt_at <= \(now.millis)
                                 AND (d.claimed_until IS NULL OR d.claimed_until <= \(now.millis))
                                 \(unescaped: WebhookOrdering.clause(ordered: ordered))
                               ORDER BY d.next_attempt_at, d.id LIMIT \(limit) FOR UPDATE SKIP LOCKED)
                RETURNING d.id, d.endpoint, d.attempts, d.next_attempt_at, o.webhook_id, o.topic, o.payload
                """)
        }
        // RETURNING comes in no particular order: soonest due first, as claimed.
        let claims = try rows.map { row in
            let columns = row.makeRandomAccess()
            return (
                due: try columns.int64("next_attempt_at"),
                claim: WebhookDelivery.Claim(
                    deliveryId: try columns.int64("id"), id: try columns.text("webhook_id"),
                    type: try columns.text("topic"), endpoint: try columns.text("endpoint"),
                    body: try columns.text("payload"), attempts: Int(try columns.int64("attempts")))
            )
        }
        return claims.sorted { ($0.due, $0.claim.deliveryId) < ($1.due, $1.claim.deliveryId) }.map(\.claim)
    }

    public func finishWebhookAttempts(_ attempts: [WebhookDelivery.Attempt], holder: String, now: Date) async throws {
        guard !attempts.isEmpty else { return }
        let at = now.millis
        try await inTransaction { connection in
            for attempt in attempts {
                switch attempt.outcome {
                case .delivered:
                    try await self.execute(
                        connection,
                        """
                        UPDATE webhook_deliveries SET status = 'delivered', attempts = attempts + 1, delivered_at = \(at),
                            last_attempt_at = \(at), last_result = \(attempt.result), next_attempt_at = \(at),
                            claimed_by = NULL, claimed_until = NULL
                        WHERE id = \(attempt.deliveryId) AND status <> 'delivered'
                        """)
                case .failed(let retryAt):
                    try await self.execute(
                        connection,
                        """
                        UPDATE webhook_deliveries SET status = \(retryAt == nil ? "dead" : "failed"),
                            attempts = attempts + 1, next_attempt_at = \((retryAt ?? now).millis),
                            last_attempt_at = \(at), last_result = \(attempt.result), claimed_by = NULL,
                            claimed_until = NULL
                        WHERE id = \(attempt.deliveryId) AND claimed_by = \(holder) AND status IN ('pending', 'failed')
                        """)
                case .released:
                    try await self.execute(
                        connection,
                        """
                        UPDATE webhook_deliveries SET claimed_by = NULL, claimed_until = NULL
                        WHERE id = \(attempt.deliveryId) AND claimed_by = \(holder)
                        """)
                }
            }
        }
    }

    public func webhookDeliveries(status: WebhookDelivery.Status?, limit: Int) async throws -> [WebhookDelivery] {
        let rows = try await withConnection { connection in
            try await self.rows(
                connection,
                """
                \(unescaped: Self.deliveriesQuery) WHERE (\(status?.rawValue)::TEXT IS NULL OR d.status = \(status?.rawValue))
                ORDER BY d.id DESC LIMIT \(limit)
                """)
        }
        return try rows.map(Self.delivery)
    }

    public func webhookDeliveries(forTransaction transactionID: String) async throws -> [WebhookDelivery] {
        // The events of a transaction are keyed `<transactionId>:credited`, `…:revoke:<n>`, `…:restore:<n>`.
        let prefix = "\(transactionID):"
        let rows = try await withConnection { connection in
            try await self.rows(
                connection,
                """
                \(unescaped: Self.deliveriesQuery) WHERE starts_with(o.idempotency_key, \(prefix))
                ORDER BY d.id
                """)
        }
        return try rows.map(Self.delivery)
    }

    public func replayWebhookEvent(_ webhookID: String, to routes: [WebhookRoute], operator name: String, now: Date)
        async throws -> [WebhookDelivery]?
    {
        try await inTransaction { connection -> [WebhookDelivery]? in
            let events = try await self.rows(
                connection, "SELECT id, topic, pruned_at FROM outbox WHERE webhook_id = \(webhookID) FOR UPDATE")
            guard let event = events.first?.makeRandomAccess() else { return nil }
            guard try event.optionalInt64("pruned_at") == nil else { throw LedgerRetention.replayRefused(webhookID) }
            let (id, topic) = (try event.int64("id"), try event.text("topic"))
            let before = try await self.rows(
                connection, "\(unescaped: Self.deliveriesQuery) WHERE d.event_id = \(id) ORDER BY d.id FOR UPDATE OF d")
            let taking = routes.filter { $0.takes(topic) }
            for route in taking {
                try await self.execute(
                    connection,
                    """
                    INSERT INTO webhook_deliveries (event_id, endpoint, status, attempts, next_attempt_at, created_at)
                    VALUES (\(id), \(route.endpoint), 'pending', 0, \(now.millis), \(now.millis))
                    ON CONFLICT (event_id, endpoint) DO UPDATE SET status = 'pending', attempts = 0,
                        next_attempt_at = excluded.next_attempt_at, delivered_at = NULL, claimed_by = NULL,
                        claimed_until = NULL
                    """)
            }
            try await self.execute(
                connection, "UPDATE outbox SET dispatched_at = COALESCE(dispatched_at, \(now.millis)) WHERE id = \(id)")
            let audit = WebhookReplayAudit(
                webhookID: webhookID, operator: name, before: try before.map(Self.delivery), routes: taking, at: now)
            try await self.insertAudit(audit.event, on: connection)
            return try await self.rows(
                connection, "\(unescaped: Self.deliveriesQuery) WHERE d.event_id = \(id) ORDER BY d.id"
            ).map(Self.delivery)
        }
    }

    public func webhookSummary() async throws -> WebhookSummary {
        let rows = try await withConnection { connection in
            try await self.rows(
                connection,
                """
                SELECT (SELECT COUNT(*) FROM outbox) AS events,
                       (SELECT COUNT(*) FROM outbox WHERE dispatched_at IS NULL) AS undispatched,
                       COUNT(*) FILTER (WHERE status = 'pending') AS pending,
                       COUNT(*) FILTER (WHERE status = 'failed') AS failed,
                       COUNT(*) FILTER (WHERE status = 'dead') AS dead,
                       COUNT(*) FILTER (WHERE status = 'delivered') AS delivered,
                       COALESCE(SUM(attempts), 0)::BIGINT AS attempts,
                       COALESCE(SUM(GREATEST(attempts - 1, 0)), 0)::BIGINT AS retries
                FROM webhook_deliveries
                """)
        }
        guard let row = rows.first?.makeRandomAccess() else {
            throw StorageError(.corrupt, "the webhook summary returned no row")
        }
        func count(_ name: String) throws -> Int { Int(try row.int64(name)) }
        return WebhookSummary(
            events: try count("events"), undispatched: try count("undispatched"), pending: try count("pending"),
            failed: try count("failed"), dead: try count("dead"), delivered: try count("delivered"),
            attempts: try count("attempts"), retries: try count("retries"))
    }

    private static let deliveriesQuery = """
        SELECT d.id, d.endpoint, d.status, d.attempts, d.next_attempt_at, d.last_attempt_at, d.last_result,
               d.delivered_at, d.created_at, o.webhook_id, o.topic, o.user_id
        FROM webhook_deliveries d JOIN outbox o ON o.id = d.event_id
        """

    private static func delivery(_ row: PostgresRow) throws -> WebhookDelivery {
        let columns = row.makeRandomAccess()
        guard let status = WebhookDelivery.Status(rawValue: try columns.text("status")) else {
            throw StorageError(.corrupt, "a webhook delivery has an unknown status")
        }
        func date(_ name: String) throws -> Date? { try columns[name].decode(Int64?.self).map { Date(millis: $0) } }
        return WebhookDelivery(
            deliveryId: try columns.int64("id"), id: try columns.text("webhook_id"), type: try columns.text("topic"),
            userId: try columns.optionalText("user_id") ?? "", endpoint: try columns.text("endpoint"), status: status,
            attempts: Int(try columns.int64("attempts")),
            nextAttemptAt: status == .pending || status == .failed ? try date("next_attempt_at") : nil,
            lastAttemptAt: try date("last_attempt_at"), lastResult: try columns.optionalText("last_result"),
            deliveredAt: try date("delivered_at"), createdAt: try date("created_at") ?? Date(millis: 0))
    }
}
