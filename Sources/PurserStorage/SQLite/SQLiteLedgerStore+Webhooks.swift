import Foundation
import PurserCore

/// The webhook outbox on SQLite: one writer at a time, so a claim is exclusive without row locks.
extension SQLiteLedgerStore {
    public func dispatchWebhookEvents(to routes: [WebhookRoute], limit: Int, now: Date) async throws -> Int {
        try await write { database in
            let at = SQLiteData.integer(Int(now.millis))
            let events = try database.query(
                """
                UPDATE outbox SET dispatched_at = ?
                WHERE id IN (SELECT id FROM outbox WHERE dispatched_at IS NULL ORDER BY id LIMIT ?)
                RETURNING id, topic
                """, [at, .integer(limit)])
            var rows: [[SQLiteData]] = []
            for event in events {
                let (id, topic) = (try event.int("id"), try event.text("topic"))
                for route in routes where route.takes(topic) {
                    rows.append([.integer(id), .text(route.endpoint), at, at])
                }
            }
            for chunk in rows.chunks(of: 200) {
                try database.query(
                    """
                    INSERT INTO webhook_deliveries (event_id, endpoint, status, attempts, next_attempt_at, created_at)
                    VALUES \(Array(repeating: "(?, ?, 'pending', 0, ?, ?)", count: chunk.count).joined(separator: ", "))
                    ON CONFLICT (event_id, endpoint) DO NOTHING
                    """, chunk.flatMap { $0 })
            }
            return events.count
        }
    }

    public func claimWebhookDeliveries(
        endpoint: String, ordered: Bool, holder: String, until: Date, limit: Int, now: Date
    ) async throws -> [WebhookDelivery.Claim] {
        try await write { database in
            let at = SQLiteData.integer(Int(now.millis))
            let claimed = try database.query(
                """
                UPDATE webhook_deliveries SET claimed_by = ?, claimed_until = ?
                WHERE id IN (SELECT d.id FROM webhook_deliveries d
                             WHERE d.endpoint = ? AND d.status IN ('pending', 'failed') AND d.next_attempt_at <= ?
                               AND (d.claimed_until IS NULL OR d.claimed_until <= ?)
                               \(WebhookOrdering.clause(ordered: ordered))
                             ORDER BY d.next_attempt_at, d.id LIMIT ?)
                RETURNING id
                """,
                [.text(holder), .integer(Int(until.millis)), .text(endpoint), at, at, .integer(limit)])
            guard !claimed.isEmpty else { return [] }
            let ids = try claimed.map { SQLiteData.integer(try $0.int("id")) }
            let rows = try database.query(
                """
                SELECT d.id, d.endpoint, d.attempts, o.webhook_id, o.topic, o.payload
                FROM webhook_deliveries d JOIN outbox o ON o.id = d.event_id
                WHERE d.id IN (\(Array(repeating: "?", count: ids.count).joined(separator: ", ")))
                ORDER BY d.next_attempt_at, d.id
                """, ids)
            return try rows.map { row in
                WebhookDelivery.Claim(
                    deliveryId: Int64(try row.int("id")), id: try row.text("webhook_id"),
                    type: try row.text("topic"), endpoint: try row.text("endpoint"),
                    body: try row.text("payload"), attempts: try row.int("attempts"))
            }
        }
    }

    public func finishWebhookAttempts(_ attempts: [WebhookDelivery.Attempt], holder: String, now: Date) async throws {
        guard !attempts.isEmpty else { return }
        try await write { database in
            let at = SQLiteData.integer(Int(now.millis))
            for attempt in attempts {
                let id = SQLiteData.integer(Int(attempt.deliveryId))
                switch attempt.outcome {
                case .delivered:
                    try database.query(
                        """
                        UPDATE webhook_deliveries SET status = 'delivered', attempts = attempts + 1, delivered_at = ?,
                            last_attempt_at = ?, last_result = ?, next_attempt_at = ?, claimed_by = NULL,
                            claimed_until = NULL
                        WHERE id = ? AND status <> 'delivered'
                        """, [at, at, .text(attempt.result), at, id])
                case .failed(let retryAt):
                    try database.query(
                        """
                        UPDATE webhook_deliveries SET status = ?, attempts = attempts + 1, next_attempt_at = ?,
                            last_attempt_at = ?, last_result = ?, claimed_by = NULL, claimed_until = NULL
                        WHERE id = ? AND claimed_by = ? AND status IN ('pending', 'failed')
                        """,
                        [
                            .text(retryAt == nil ? "dead" : "failed"), .integer(Int((retryAt ?? now).millis)), at,
                            .text(attempt.result), id, .text(holder),
                        ])
                case .released:
                    try database.query(
                        """
                        UPDATE webhook_deliveries SET claimed_by = NULL, claimed_until = NULL
                        WHERE id = ? AND claimed_by = ?
                        """, [id, .text(holder)])
                }
            }
        }
    }

    public func webhookDeliveries(status: WebhookDelivery.Status?, limit: Int) async throws -> [WebhookDelivery] {
        let rows = try await read(
            Self.deliveriesQuery(where: status == nil ? "" : "WHERE d.status = ?") + " ORDER BY d.id DESC LIMIT ?",
            (status.map { [SQLiteData.text($0.rawValue)] } ?? []) + [.integer(limit)])
        return try rows.map(Self.delivery)
    }

    public func webhookDeliveries(forTransaction transactionID: String) async throws -> [WebhookDelivery] {
        // The events of a transaction are keyed `<transactionId>:credited`, `…:revoke:<n>`, `…:restore:<n>`.
        let prefix = "\(transactionID):"
        return try await read(
            Self.deliveriesQuery(where: "WHERE substr(o.idempotency_key, 1, ?) = ?") + " ORDER BY d.id",
            [.integer(prefix.count), .text(prefix)]
        ).map(Self.delivery)
    }

    public func replayWebhookEvent(_ webhookID: String, to routes: [WebhookRoute], operator name: String, now: Date)
        async throws -> [WebhookDelivery]?
    {
        try await write { database -> [WebhookDelivery]? in
            let at = SQLiteData.integer(Int(now.millis))
            let events = try database.query(
                "SELECT id, topic, pruned_at FROM outbox WHERE webhook_id = ?", [.text(webhookID)])
            guard let event = events.first else { return nil }
            guard event.optionalInt("pruned_at") == nil else { throw LedgerRetention.replayRefused(webhookID) }
            let id = SQLiteData.integer(try event.int("id"))
            let before = try database.query(
                Self.deliveriesQuery(where: "WHERE d.event_id = ?") + " ORDER BY d.id", [id])
            let topic = try event.text("topic")
            let taking = routes.filter { $0.takes(topic) }
            for route in taking {
                try database.query(
                    """
                    INSERT INTO webhook_deliveries (event_id, endpoint, status, attempts, next_attempt_at, created_at)
                    VALUES (?, ?, 'pending', 0, ?, ?)
                    ON CONFLICT (event_id, endpoint) DO UPDATE SET status = 'pending', attempts = 0,
                        next_attempt_at = excluded.next_attempt_at, delivered_at = NULL, claimed_by = NULL,
                        claimed_until = NULL
                    """, [id, .text(route.endpoint), at, at])
            }
            try database.query(
                "UPDATE outbox SET dispatched_at = COALESCE(dispatched_at, ?) WHERE id = ?", [at, id])
            let audit = WebhookReplayAudit(
                webhookID: webhookID, operator: name, before: try before.map(Self.delivery), routes: taking, at: now
            )
            try database.query(
                "INSERT INTO audit_log (at, subject, subject_id, event, cause, detail) VALUES (?, ?, ?, ?, ?, ?)",
                [
                    at, .text(audit.event.subject.rawValue), .text(webhookID), .text(audit.event.event),
                    .text(audit.event.cause), .text(audit.event.detail),
                ])
            return try database.query(
                Self.deliveriesQuery(where: "WHERE d.event_id = ?") + " ORDER BY d.id", [id]
            ).map(Self.delivery)
        }
    }

    public func webhookSummary() async throws -> WebhookSummary {
        let rows = try await read(
            """
            SELECT (SELECT COUNT(*) FROM outbox) AS events,
                   (SELECT COUNT(*) FROM outbox WHERE dispatched_at IS NULL) AS undispatched,
                   COALESCE(SUM(status = 'pending'), 0) AS pending, COALESCE(SUM(status = 'failed'), 0) AS failed,
                   COALESCE(SUM(status = 'dead'), 0) AS dead, COALESCE(SUM(status = 'delivered'), 0) AS delivered,
                   COALESCE(SUM(attempts), 0) AS attempts, COALESCE(SUM(MAX(attempts - 1, 0)), 0) AS retries
            FROM webhook_deliveries
            """, [])
        guard let row = rows.first else { throw StorageError(.corrupt, "the webhook summary returned no row") }
        return WebhookSummary(
            events: try row.int("events"), undispatched: try row.int("undispatched"), pending: try row.int("pending"),
            failed: try row.int("failed"), dead: try row.int("dead"), delivered: try row.int("delivered"),
            attempts: try row.int("attempts"), retries: try row.int("retries"))
    }

    private static func deliveriesQuery(where condition: String) -> String {
        """
        SELECT d.id, d.endpoint, d.status, d.attempts, d.next_attempt_at, d.last_attempt_at, d.last_result,
               d.delivered_at, d.created_at, o.webhook_id, o.topic, o.user_id
        FROM webhook_deliveries d JOIN outbox o ON o.id = d.event_id \(condition)
        """
    }

    private static func delivery(_ row: SQLiteRow) throws -> WebhookDelivery {
        guard let status = WebhookDelivery.Status(rawValue: try row.text("status")) else {
            throw StorageError(.corrupt, "a webhook delivery has an unknown status")
        }
        func date(_ name: String) -> Date? { row.column(name)?.integer.map { Date(millis: $0) } }
        return WebhookDelivery(
            deliveryId: Int64(try row.int("id")), id: try row.text("webhook_id"), type: try row.text("topic"),
            userId: row.optionalText("user_id") ?? "", endpoint: try row.text("endpoint"), status: status,
            attempts: try row.int("attempts"),
            nextAttemptAt: status == .pending || status == .failed ? date("next_attempt_at") : nil,
            lastAttemptAt: date("last_attempt_at"), lastResult: row.optionalText("last_result"),
            deliveredAt: date("delivered_at"), createdAt: date("created_at") ?? Date(millis: 0))
    }
}

extension Array {
    /// The array cut into consecutive pieces of at most `size` elements.
    func chunks(of size: Int) -> [ArraySlice<Element>] {
        stride(from: 0, to: count, by: size).map { self[$0..<Swift.min($0 + size, count)] }
    }
}
