import Foundation
import PurserCore

extension SQLiteLedgerStore {
    /// On the one writer: the requester's day is read and the grant written in one hop of the writer, so no other
    /// write comes between them.
    public func recordConsoleGrant(_ grant: ConsoleGrant, within limits: GrantLimits?) async throws -> ConsoleGrant {
        try await write { database in
            if let recorded = try Self.consoleGrant(grant.id, on: database) { return recorded }
            let decided = try limits.map { limits in
                limits.decide(
                    grant,
                    given: try Self.consoleGrantTotal(
                        app: grant.app, requestedBy: grant.requestedBy, currency: grant.currency,
                        since: grant.requestedAt.addingTimeInterval(-GrantLimits.day), on: database))
            }
            let grant = decided ?? grant
            let inserted = try database.query(
                """
                INSERT INTO console_grants (\(ConsoleLedgerSQL.grantColumns))
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING RETURNING id
                """,
                [
                    .text(grant.id), .text(grant.app), .text(grant.userID), .text(grant.currency),
                    .integer(Int(grant.amount)), .text(grant.reason), .text(grant.requestedBy),
                    .integer(Int(grant.requestedAt.millis)), .text(grant.state.rawValue),
                    .optionalText(grant.decidedBy), .optionalInteger(grant.decidedAt?.millis),
                ])
            if !inserted.isEmpty, grant.state == .pending {
                try Self.insertAudit(ConsoleLedgerSQL.requestAudit(grant), on: database)
            }
            return try Self.consoleGrant(grant.id, on: database) ?? grant
        }
    }

    public func consoleGrant(_ id: String) async throws -> ConsoleGrant? {
        try await reading { try Self.consoleGrant(id, on: $0) }
    }

    public func consoleGrants(app: String, state: ConsoleGrant.State, limit: Int) async throws -> [ConsoleGrant] {
        try await read(
            """
            SELECT \(ConsoleLedgerSQL.grantColumns) FROM console_grants WHERE app = ? AND state = ?
            ORDER BY requested_at, id LIMIT ?
            """, [.text(app), .text(state.rawValue), .integer(limit)]
        ).map(Self.consoleGrant)
    }

    public func consoleGrantTotal(app: String, requestedBy requester: String, currency: String, since: Date)
        async throws -> Int64
    {
        try await reading {
            try Self.consoleGrantTotal(app: app, requestedBy: requester, currency: currency, since: since, on: $0)
        }
    }

    static func consoleGrantTotal(
        app: String, requestedBy requester: String, currency: String, since: Date, on database: SQLiteDatabase
    ) throws -> Int64 {
        let rows = try database.query(
            """
            SELECT COALESCE(SUM(amount), 0) AS total FROM console_grants
            WHERE requested_by = ? AND currency = ? AND requested_at >= ? AND app = ? AND state = 'granted'
            """, [.text(requester), .text(currency), .integer(Int(since.millis)), .text(app)])
        return Int64(try rows.first?.int("total") ?? 0)
    }

    public func decideConsoleGrant(_ id: String, state: ConsoleGrant.State, by decider: String, now: Date)
        async throws -> ConsoleGrant?
    {
        try await write { database in
            let changed = try database.query(
                """
                UPDATE console_grants SET state = ?, decided_by = ?, decided_at = ?
                WHERE id = ? AND state = 'pending' AND requested_by <> ? RETURNING id
                """,
                [.text(state.rawValue), .text(decider), .integer(Int(now.millis)), .text(id), .text(decider)])
            guard !changed.isEmpty, let grant = try Self.consoleGrant(id, on: database) else { return nil }
            try Self.insertAudit(ConsoleLedgerSQL.decisionAudit(grant, at: now), on: database)
            return grant
        }
    }

    static func consoleGrant(_ id: String, on database: SQLiteDatabase) throws -> ConsoleGrant? {
        try database.query(
            "SELECT \(ConsoleLedgerSQL.grantColumns) FROM console_grants WHERE id = ?", [.text(id)]
        ).first.map(consoleGrant)
    }

    static func consoleGrant(_ row: SQLiteRow) throws -> ConsoleGrant {
        ConsoleGrant(
            id: try row.text("id"), app: try row.text("app"), userID: try row.text("user_id"),
            currency: try row.text("currency"), amount: Int64(try row.int("amount")), reason: try row.text("reason"),
            requestedBy: try row.text("requested_by"), requestedAt: Date(millis: try row.int("requested_at")),
            state: ConsoleGrant.State(rawValue: try row.text("state")) ?? .declined,
            decidedBy: row.optionalText("decided_by"), decidedAt: row.optionalInt("decided_at").map { Date(millis: $0) }
        )
    }
}
