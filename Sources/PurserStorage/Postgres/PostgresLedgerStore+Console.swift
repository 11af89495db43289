import Foundation
import PostgresNIO
import PurserCore

extension PostgresLedgerStore {
    public func consoleOperators() async throws -> [ConsoleOperator] {
        try await withConnection { connection in
            var found: [ConsoleOperator] = []
            let rows = try await self.rows(
                connection,
                "SELECT \(unescaped: ConsoleLedgerSQL.operatorColumns) FROM console_operators ORDER BY name")
            for row in rows { found.append(try await self.consoleOperator(row.makeRandomAccess(), on: connection)) }
            return found
        }
    }

    public func consoleOperator(_ name: String) async throws -> ConsoleOperator? {
        try await withConnection { try await self.consoleOperator(named: name, on: $0) }
    }

    public func addConsoleOperator(_ person: ConsoleOperator, cause: String, now: Date) async throws -> Bool {
        try await inTransaction { connection in
            let added = try await self.rows(
                connection,
                """
                INSERT INTO console_operators (name, password_hash, disabled, generation, grant_limit,
                    grant_limit_per_day, created_at, updated_at)
                VALUES (\(person.name), \(person.passwordHash), \(Int64(person.disabled ? 1 : 0)), \(person.generation),
                    \(person.grantLimit), \(person.grantLimitPerDay), \(now.millis), \(now.millis))
                ON CONFLICT (name) DO NOTHING RETURNING name
                """)
            guard !added.isEmpty else { return false }
            for (app, role) in person.roles { try await self.setRole(role, app: app, of: person.name, on: connection) }
            try await self.insertAudit(
                ConsoleLedgerSQL.audit(
                    person.name, event: "added", cause: cause, detail: ConsoleLedgerSQL.roleDetail(person.roles),
                    at: now), on: connection)
            return true
        }
    }

    public func changeConsoleOperator(_ name: String, _ change: ConsoleOperator.Change, cause: String, now: Date)
        async throws -> ConsoleOperator?
    {
        try await inTransaction { connection in
            let bump = change.bumpsGeneration ? 1 : 0 as Int64
            let query: PostgresQuery =
                switch change {
                case .role:
                    "UPDATE console_operators SET updated_at = \(now.millis) WHERE name = \(name) RETURNING name"
                case .disabled(let disabled):
                    """
                    UPDATE console_operators SET disabled = \(Int64(disabled ? 1 : 0)), updated_at = \(now.millis),
                        generation = generation + \(bump)
                    WHERE name = \(name) RETURNING name
                    """
                case .password(let hash):
                    """
                    UPDATE console_operators SET password_hash = \(hash), updated_at = \(now.millis),
                        generation = generation + \(bump)
                    WHERE name = \(name) RETURNING name
                    """
                case .limits(let perGrant, let perDay):
                    """
                    UPDATE console_operators SET grant_limit = \(perGrant), grant_limit_per_day = \(perDay),
                        updated_at = \(now.millis)
                    WHERE name = \(name) RETURNING name
                    """
                }
            guard !(try await self.rows(connection, query)).isEmpty else { return nil }
            if case .role(let app, let role) = change {
                try await self.setRole(role, app: app, of: name, on: connection)
            }
            try await self.insertAudit(
                ConsoleLedgerSQL.audit(name, event: change.event, cause: cause, detail: change.detail, at: now),
                on: connection)
            return try await self.consoleOperator(named: name, on: connection)
        }
    }

    public func signInFailures(keys: [String], since: Date) async throws -> [String: Int] {
        try await withConnection { connection in
            let rows = try await self.rows(
                connection,
                """
                SELECT key, COUNT(*) AS n FROM console_sign_in_failures
                WHERE key = ANY(\(keys)) AND at >= \(since.millis) GROUP BY key
                """)
            var counts: [String: Int] = [:]
            for row in rows {
                let row = row.makeRandomAccess()
                counts[try row.text("key")] = Int(try row.int64("n"))
            }
            return counts
        }
    }

    public func recordSignInFailure(keys: [String], at: Date, forgettingBefore: Date) async throws {
        try await inTransaction { connection in
            try await self.execute(
                connection, "DELETE FROM console_sign_in_failures WHERE at < \(forgettingBefore.millis)")
            for key in keys {
                try await self.execute(
                    connection, "INSERT INTO console_sign_in_failures (key, at) VALUES (\(key), \(at.millis))")
            }
        }
    }

    public func clearSignInFailures(key: String) async throws {
        try await withConnection { connection in
            try await self.execute(connection, "DELETE FROM console_sign_in_failures WHERE key = \(key)")
        }
    }

    func setRole(_ role: ConsoleRole?, app: String, of name: String, on connection: PostgresConnection) async throws {
        guard let role else {
            try await execute(
                connection, "DELETE FROM console_operator_roles WHERE operator_name = \(name) AND app = \(app)")
            return
        }
        try await execute(
            connection,
            """
            INSERT INTO console_operator_roles (operator_name, app, role) VALUES (\(name), \(app), \(role.rawValue))
            ON CONFLICT (operator_name, app) DO UPDATE SET role = excluded.role
            """)
    }

    func consoleOperator(named name: String, on connection: PostgresConnection) async throws -> ConsoleOperator? {
        let rows = try await self.rows(
            connection,
            "SELECT \(unescaped: ConsoleLedgerSQL.operatorColumns) FROM console_operators WHERE name = \(name)")
        guard let row = rows.first else { return nil }
        return try await consoleOperator(row.makeRandomAccess(), on: connection)
    }

    func consoleOperator(_ row: PostgresRandomAccessRow, on connection: PostgresConnection) async throws
        -> ConsoleOperator
    {
        let name = try row.text("name")
        var roles: [String: ConsoleRole] = [:]
        for role in try await self.rows(
            connection, "SELECT app, role FROM console_operator_roles WHERE operator_name = \(name)")
        {
            let role = role.makeRandomAccess()
            if let value = ConsoleRole(rawValue: try role.text("role")) { roles[try role.text("app")] = value }
        }
        return ConsoleOperator(
            name: name, passwordHash: try row.text("password_hash"), roles: roles,
            disabled: try row.int64("disabled") != 0, generation: try row.int64("generation"),
            grantLimit: try row.optionalInt64("grant_limit"),
            grantLimitPerDay: try row.optionalInt64("grant_limit_per_day"),
            updatedAt: Date(millis: try row.int64("updated_at")))
    }
}
