import Foundation
import PurserCore

extension SQLiteLedgerStore {
    public func consoleOperators() async throws -> [ConsoleOperator] {
        try await reading { database in
            try database.query("SELECT \(ConsoleLedgerSQL.operatorColumns) FROM console_operators ORDER BY name")
                .map { try Self.consoleOperator($0, on: database) }
        }
    }

    public func consoleOperator(_ name: String) async throws -> ConsoleOperator? {
        try await reading { try Self.consoleOperator(named: name, on: $0) }
    }

    public func addConsoleOperator(_ person: ConsoleOperator, cause: String, now: Date) async throws -> Bool {
        try await write { database in
            let added = try database.query(
                """
                INSERT INTO console_operators (name, password_hash, disabled, generation, grant_limit,
                    grant_limit_per_day, created_at, updated_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (name) DO NOTHING RETURNING name
                """,
                [
                    .text(person.name), .text(person.passwordHash), .integer(person.disabled ? 1 : 0),
                    .integer(Int(person.generation)), .optionalInteger(person.grantLimit),
                    .optionalInteger(person.grantLimitPerDay), .integer(Int(now.millis)), .integer(Int(now.millis)),
                ])
            guard !added.isEmpty else { return false }
            for (app, role) in person.roles {
                try Self.setRole(role, app: app, of: person.name, on: database)
            }
            try Self.insertAudit(
                ConsoleLedgerSQL.audit(
                    person.name, event: "added", cause: cause, detail: ConsoleLedgerSQL.roleDetail(person.roles),
                    at: now), on: database)
            return true
        }
    }

    public func changeConsoleOperator(_ name: String, _ change: ConsoleOperator.Change, cause: String, now: Date)
        async throws -> ConsoleOperator?
    {
        try await write { database in
            let bump = change.bumpsGeneration ? ", generation = generation + 1" : ""
            let (sets, binds): (String, [SQLiteData]) =
                switch change {
                case .role: ("", [])
                case .disabled(let disabled): ("disabled = ?, ", [.integer(disabled ? 1 : 0)])
                case .password(let hash): ("password_hash = ?, ", [.text(hash)])
                case .limits(let perGrant, let perDay):
                    (
                        "grant_limit = ?, grant_limit_per_day = ?, ",
                        [.optionalInteger(perGrant), .optionalInteger(perDay)]
                    )
                }
            let found = try database.query(
                "UPDATE console_operators SET \(sets)updated_at = ?\(bump) WHERE name = ? RETURNING name",
                binds + [.integer(Int(now.millis)), .text(name)])
            guard !found.isEmpty else { return nil }
            if case .role(let app, let role) = change {
                try Self.setRole(role, app: app, of: name, on: database)
            }
            try Self.insertAudit(
                ConsoleLedgerSQL.audit(name, event: change.event, cause: cause, detail: change.detail, at: now),
                on: database)
            return try Self.consoleOperator(named: name, on: database)
        }
    }

    public func signInFailures(keys: [String], since: Date) async throws -> [String: Int] {
        try await reading { database in
            var counts: [String: Int] = [:]
            for key in keys {
                let count =
                    try database.query(
                        "SELECT COUNT(*) AS n FROM console_sign_in_failures WHERE key = ? AND at >= ?",
                        [.text(key), .integer(Int(since.millis))]
                    ).first?.int("n") ?? 0
                if count > 0 { counts[key] = count }
            }
            return counts
        }
    }

    public func recordSignInFailure(keys: [String], at: Date, forgettingBefore: Date) async throws {
        try await write { database in
            try database.query(
                "DELETE FROM console_sign_in_failures WHERE at < ?", [.integer(Int(forgettingBefore.millis))])
            for key in keys {
                try database.query(
                    "INSERT INTO console_sign_in_failures (key, at) VALUES (?, ?)",
                    [.text(key), .integer(Int(at.millis))])
            }
        }
    }

    public func clearSignInFailures(key: String) async throws {
        try await write { database in
            try database.query("DELETE FROM console_sign_in_failures WHERE key = ?", [.text(key)])
        }
    }

    static func setRole(_ role: ConsoleRole?, app: String, of name: String, on database: SQLiteDatabase) throws {
        guard let role else {
            try database.query(
                "DELETE FROM console_operator_roles WHERE operator_name = ? AND app = ?", [.text(name), .text(app)])
            return
        }
        try database.query(
            """
            INSERT INTO console_operator_roles (operator_name, app, role) VALUES (?, ?, ?)
            ON CONFLICT (operator_name, app) DO UPDATE SET role = excluded.role
            """, [.text(name), .text(app), .text(role.rawValue)])
    }

    static func consoleOperator(named name: String, on database: SQLiteDatabase) throws -> ConsoleOperator? {
        try database.query(
            "SELECT \(ConsoleLedgerSQL.operatorColumns) FROM console_operators WHERE name = ?", [.text(name)]
        ).first.map { try consoleOperator($0, on: database) }
    }

    static func consoleOperator(_ row: SQLiteRow, on database: SQLiteDatabase) throws -> ConsoleOperator {
        let name = try row.text("name")
        var roles: [String: ConsoleRole] = [:]
        for role in try database.query(
            "SELECT app, role FROM console_operator_roles WHERE operator_name = ?", [.text(name)])
        {
            if let value = ConsoleRole(rawValue: try role.text("role")) { roles[try role.text("app")] = value }
        }
        return ConsoleOperator(
            name: name, passwordHash: try row.text("password_hash"), roles: roles,
            disabled: try row.int("disabled") != 0,
            generation: Int64(try row.int("generation")), grantLimit: row.optionalInt("grant_limit").map(Int64.init),
            grantLimitPerDay: row.optionalInt("grant_limit_per_day").map(Int64.init),
            updatedAt: Date(millis: Int64(try row.int("updated_at"))))
    }
}
