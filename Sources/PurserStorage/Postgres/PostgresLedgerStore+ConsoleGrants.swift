import Foundation
import PostgresNIO
import PurserCore

extension PostgresLedgerStore {
    /// The advisory lock class of a requester's goodwill day (with `hashtext` of app, requester and currency):
    /// "purg" in ASCII.
    static let consoleGrantLockKey: Int32 = 0x7075_7267

    /// In one transaction that first takes the lock on the requester's day in the grant's app and currency: two
    /// grants asked at once, on any replicas, are decided one after the other, each seeing the other's credit.
    public func recordConsoleGrant(_ grant: ConsoleGrant, within limits: GrantLimits?) async throws -> ConsoleGrant {
        try await inTransaction { connection in
            let day = "\(grant.app)|\(grant.requestedBy)|\(grant.currency)"
            try await self.execute(
                connection, "SELECT pg_advisory_xact_lock(\(Self.consoleGrantLockKey), hashtext(\(day)))")
            if let recorded = try await self.consoleGrant(grant.id, on: connection) { return recorded }
            var decided = grant
            if let limits {
                let given = try await self.consoleGrantTotal(
                    app: grant.app, requestedBy: grant.requestedBy, currency: grant.currency,
                    since: grant.requestedAt.addingTimeInterval(-GrantLimits.day), on: connection)
                decided = limits.decide(grant, given: given)
            }
            let grant = decided
            let inserted = try await self.rows(
                connection,
                """
                INSERT INTO console_grants (\(unescaped: ConsoleLedgerSQL.grantColumns))
                VALUES (\(grant.id), \(grant.app), \(grant.userID), \(grant.currency), \(grant.amount), \(grant.reason),
                    \(grant.requestedBy), \(grant.requestedAt.millis), \(grant.state.rawValue), \(grant.decidedBy),
                    \(grant.decidedAt?.millis))
                ON CONFLICT (id) DO NOTHING RETURNING id
                """)
            if !inserted.isEmpty, grant.state == .pending {
                try await self.insertAudit(ConsoleLedgerSQL.requestAudit(grant), on: connection)
            }
            return try await self.consoleGrant(grant.id, on: connection) ?? grant
        }
    }

    public func consoleGrant(_ id: String) async throws -> ConsoleGrant? {
        try await withConnection { try await self.consoleGrant(id, on: $0) }
    }

    public func consoleGrants(app: String, state: ConsoleGrant.State, limit: Int) async throws -> [ConsoleGrant] {
        try await withConnection { connection in
            try await self.rows(
                connection,
                """
                SELECT \(unescaped: ConsoleLedgerSQL.grantColumns) FROM console_grants
                WHERE app = \(app) AND state = \(state.rawValue) ORDER BY requested_at, id LIMIT \(Int64(limit))
                """
            ).map { try Self.consoleGrant($0.makeRandomAccess()) }
        }
    }

    public func consoleGrantTotal(app: String, requestedBy requester: String, currency: String, since: Date)
        async throws -> Int64
    {
        try await withConnection { connection in
            try await self.consoleGrantTotal(
                app: app, requestedBy: requester, currency: currency, since: since, on: connection)
        }
    }

    func consoleGrantTotal(
        app: String, requestedBy requester: String, currency: String, since: Date, on connection: PostgresConnection
    ) async throws -> Int64 {
        let rows = try await self.rows(
            connection,
            """
            SELECT CAST(COALESCE(SUM(amount), 0) AS BIGINT) AS total FROM console_grants
            WHERE requested_by = \(requester) AND currency = \(currency) AND requested_at >= \(since.millis)
              AND app = \(app) AND state = 'granted'
            """)
        return try rows.first?.makeRandomAccess().int64("total") ?? 0
    }

    public func decideConsoleGrant(_ id: String, state: ConsoleGrant.State, by decider: String, now: Date)
        async throws -> ConsoleGrant?
    {
        try await inTransaction { connection in
            let changed = try await self.rows(
                connection,
                """
                UPDATE console_grants SET state = \(state.rawValue), decided_by = \(decider), decided_at = \(now.millis)
                WHERE id = \(id) AND state = 'pending' AND requested_by <> \(decider) RETURNING id
                """)
            guard !changed.isEmpty, let grant = try await self.consoleGrant(id, on: connection) else { return nil }
            try await self.insertAudit(ConsoleLedgerSQL.decisionAudit(grant, at: now), on: connection)
            return grant
        }
    }

    func consoleGrant(_ id: String, on connection: PostgresConnection) async throws -> ConsoleGrant? {
        try await rows(
            connection,
            "SELECT \(unescaped: ConsoleLedgerSQL.grantColumns) FROM console_grants WHERE id = \(id)"
        ).first.map { try Self.consoleGrant($0.makeRandomAccess()) }
    }

    static func consoleGrant(_ row: PostgresRandomAccessRow) throws -> ConsoleGrant {
        ConsoleGrant(
            id: try row.text("id"), app: try row.text("app"), userID: try row.text("user_id"),
            currency: try row.text("currency"), amount: try row.int64("amount"), reason: try row.text("reason"),
            requestedBy: try row.text("requested_by"), requestedAt: Date(millis: try row.int64("requested_at")),
            state: ConsoleGrant.State(rawValue: try row.text("state")) ?? .declined,
            decidedBy: try row.optionalText("decided_by"),
            decidedAt: try row.optionalInt64("decided_at").map { Date(millis: $0) })
    }
}
