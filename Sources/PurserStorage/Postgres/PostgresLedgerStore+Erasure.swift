import Foundation
import PostgresNIO
import PurserCore

extension PostgresLedgerStore {
    public func rowsMentioning(_ text: String) async throws -> [LedgerRow] {
        try await withConnection { try await self.mentions(of: ErasureText(text), locking: false, on: $0).map(\.row) }
    }

    public func eraseUser(_ user: UserID, pseudonym: UserID, cause: String, now: Date) async throws -> UserErasure? {
        try await inTransaction { connection -> UserErasure? in
            // A pseudonym erased before (the id came back, and went again) keeps one event counter: the higher. Both
            // statements change nothing unless the user has a counter, so they come before the search (an update
            // gives a row a new ctid).
            try await self.execute(
                connection,
                """
                UPDATE webhook_sequences SET last = GREATEST(last,
                    (SELECT p.last FROM webhook_sequences p WHERE p.user_id = \(pseudonym.rawValue)))
                WHERE user_id = \(user.rawValue)
                  AND EXISTS (SELECT 1 FROM webhook_sequences p WHERE p.user_id = \(pseudonym.rawValue))
                """)
            try await self.execute(
                connection,
                """
                DELETE FROM webhook_sequences WHERE user_id = \(pseudonym.rawValue)
                  AND EXISTS (SELECT 1 FROM webhook_sequences u WHERE u.user_id = \(user.rawValue))
                """)
            var (rows, kept): ([String: Int], [String: Int]) = ([:], [:])
            // Each pass reads the rows again: an update gives a row a new ctid.
            for (pass, (id, replacement)) in UserErasure.Rules.replacements(of: user, by: pseudonym).enumerated() {
                let hits = try await self.mentions(of: id, locking: true, on: connection)
                if pass == 0, hits.isEmpty { return nil }  // nothing holds the id itself; the counters are untouched
                for (row, ctid) in hits {
                    let (changes, keptID) = UserErasure.Rules.rewrite(
                        row.values, table: row.table, id: id, pseudonym: replacement)
                    if keptID { kept[row.table, default: 0] += 1 }
                    guard !changes.isEmpty else { continue }
                    try await self.update(row.table, ctid: ctid, changes, on: connection)
                    rows[row.table, default: 0] += 1
                }
            }
            // Only ids kept as they were (a caller's idempotency ids) still hold it: erased before, nothing to do.
            guard !rows.isEmpty else { return nil }
            let eventID = try await self.writeOutboxEvent(
                .userErased(pseudonym: pseudonym, at: now), on: connection)
            let erasure = UserErasure(pseudonym: pseudonym.rawValue, rows: rows, kept: kept, eventID: eventID)
            try await self.execute(
                connection,
                """
                INSERT INTO audit_log (at, subject, subject_id, event, cause, detail)
                VALUES (\(now.millis), 'user', \(pseudonym.rawValue), 'erased', \(cause),
                    \(UserErasure.Rules.detail(erasure)))
                """)
            return erasure
        }
    }

    /// Every row of every table of the ledger's schema (but the migrations') holding the id as itself in a text
    /// column, with its `ctid` (locked with `FOR UPDATE` when `locking`, so it stays that row's until commit). The
    /// tables and columns are read from the catalog, so a table a later migration adds is searched too.
    func mentions(of id: ErasureText, locking: Bool, on connection: PostgresConnection) async throws
        -> [(row: LedgerRow, ctid: String)]
    {
        let catalog = try await rows(
            connection,
            """
            SELECT table_name::text AS table_name, column_name::text AS column_name FROM information_schema.columns
            WHERE table_schema = current_schema() AND data_type IN ('text', 'character varying')
            ORDER BY table_name, ordinal_position
            """)
        var columns: [(table: String, columns: [String])] = []
        for row in catalog {
            let (table, column) = (
                try row.makeRandomAccess().text("table_name"), try row.makeRandomAccess().text("column_name")
            )
            guard !UserErasure.Rules.untouched.contains(table) else { continue }
            if columns.last?.table == table {
                columns[columns.count - 1].columns.append(column)
            } else {
                columns.append((table, [column]))
            }
        }
        var found: [(row: LedgerRow, ctid: String)] = []
        for (table, names) in columns {
            var binds = PostgresBindings()
            for form in id.forms { binds.append(form) }
            let conditions = names.flatMap { name in id.forms.indices.map { "strpos(\"\(name)\", $\($0 + 1)) > 0" } }
            let query = PostgresQuery(
                unsafeSQL: "SELECT ctid::text AS purser_ctid, * FROM \"\(table)\" WHERE "
                    + conditions.joined(separator: " OR ") + (locking ? " FOR UPDATE" : ""), binds: binds)
            for row in try await rows(connection, query) {
                var values: [String: LedgerRow.Value] = [:]
                var ctid = ""
                for cell in row {
                    if cell.columnName == "purser_ctid" {
                        ctid = try cell.decode(String.self)
                    } else {
                        values[cell.columnName] = try Self.value(cell)
                    }
                }
                guard values.values.contains(where: { $0.text.map(id.occurs(in:)) ?? false }) else { continue }
                found.append((LedgerRow(table: table, values: values), ctid))
            }
        }
        return found
    }

    /// Sets `changes` (text or null) on the row at `ctid` of `table`.
    private func update(
        _ table: String, ctid: String, _ changes: [String: LedgerRow.Value], on connection: PostgresConnection
    ) async throws {
        let columns = changes.keys.sorted()
        var binds = PostgresBindings()
        for column in columns {
            if let text = changes[column]?.text { binds.append(text) } else { binds.appendNull() }
        }
        binds.append(ctid)
        let assignments = columns.enumerated().map { "\"\($0.element)\" = $\($0.offset + 1)" }
        try await execute(
            connection,
            PostgresQuery(
                unsafeSQL: "UPDATE \"\(table)\" SET \(assignments.joined(separator: ", ")) "
                    + "WHERE ctid = $\(columns.count + 1)::tid", binds: binds))
    }

    /// A cell as an export shows it: integers as numbers, everything else as text.
    private static func value(_ cell: PostgresCell) throws -> LedgerRow.Value {
        guard cell.bytes != nil else { return .null }
        switch cell.dataType {
        case .int2, .int4, .int8: return .integer(try cell.decode(Int64.self))
        case .bool: return .text(try cell.decode(Bool.self) ? "true" : "false")
        default: return .text(try cell.decode(String.self))
        }
    }
}
