import Foundation
import PurserCore

extension SQLiteLedgerStore {
    public func rowsMentioning(_ text: String) async throws -> [LedgerRow] {
        try await reading { try Self.mentions(of: ErasureText(text), on: $0).map(\.row) }
    }

    public func eraseUser(_ user: UserID, pseudonym: UserID, cause: String, now: Date) async throws -> UserErasure? {
        try await write { database -> UserErasure? in
            var (rows, kept): ([String: Int], [String: Int]) = ([:], [:])
            for (pass, (id, replacement)) in UserErasure.Rules.replacements(of: user, by: pseudonym).enumerated() {
                let hits = try Self.mentions(of: id, on: database)
                if pass == 0, hits.isEmpty { return nil }  // nothing holds the id itself
                for (row, key) in hits {
                    let (changes, keptID) = UserErasure.Rules.rewrite(
                        row.values, table: row.table, id: id, pseudonym: replacement)
                    if keptID { kept[row.table, default: 0] += 1 }
                    guard !changes.isEmpty else { continue }
                    let columns = changes.keys.sorted()
                    try database.query(
                        "UPDATE \"\(row.table)\" SET " + columns.map { "\"\($0)\" = ?" }.joined(separator: ", ")
                            + " WHERE " + key.map { "\"\($0.column)\" = ?" }.joined(separator: " AND "),
                        columns.map { Self.data(changes[$0] ?? .null) } + key.map(\.value))
                    rows[row.table, default: 0] += 1
                }
            }
            // Only ids kept as they were (a caller's idempotency ids) still hold it: erased before, nothing to do.
            guard !rows.isEmpty else { return nil }
            let eventID = try Self.writeOutboxEvent(
                .userErased(pseudonym: pseudonym, at: now), outbox: self.outbox, on: database)
            let erasure = UserErasure(pseudonym: pseudonym.rawValue, rows: rows, kept: kept, eventID: eventID)
            try database.query(
                "INSERT INTO audit_log (at, subject, subject_id, event, cause, detail) VALUES (?, 'user', ?, 'erased', ?, ?)",
                [
                    .integer(Int(now.millis)), .text(pseudonym.rawValue), .text(cause),
                    .text(UserErasure.Rules.detail(erasure)),
                ])
            return erasure
        }
    }

    /// The columns and values that name one row in an `UPDATE`: its rowid, or a `WITHOUT ROWID` table's primary key.
    typealias RowKey = [(column: String, value: SQLiteData)]

    /// Every row of every table (but the migrations') holding the id as itself in a text column, with its key. The
    /// tables and columns are read from the schema, so a table a later migration adds is searched too.
    static func mentions(of id: ErasureText, on database: SQLiteDatabase) throws -> [(row: LedgerRow, key: RowKey)] {
        let tables = try database.query(
            "SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name"
        ).map { (name: try $0.text("name"), clustered: try $0.text("sql").uppercased().hasSuffix("WITHOUT ROWID")) }
        var found: [(row: LedgerRow, key: RowKey)] = []
        for (table, clustered) in tables where !UserErasure.Rules.untouched.contains(table) {
            let info = try database.query("SELECT name, type, pk FROM pragma_table_info(?)", [.text(table)])
            let primaryKey = try info.filter { try $0.int("pk") > 0 }.sorted { try $0.int("pk") < $1.int("pk") }
                .map { try $0.text("name") }
            let columns = try info.filter { ["TEXT", ""].contains((try? $0.text("type").uppercased()) ?? "") }
                .map { try $0.text("name") }
            guard !columns.isEmpty else { continue }
            let conditions = columns.flatMap { column in id.forms.map { _ in "instr(\"\(column)\", ?) > 0" } }
            let binds = columns.flatMap { _ in id.forms.map { SQLiteData.text($0) } }
            let rows = try database.query(
                "SELECT \(clustered ? "" : "rowid AS purser_rowid, ")* FROM \"\(table)\" WHERE "
                    + conditions.joined(separator: " OR "), binds)
            for row in rows {
                var values: [String: LedgerRow.Value] = [:]
                for (name, value) in zip(row.columns.names, row.values) where name != "purser_rowid" {
                    values[name] = value.integer.map { .integer(Int64($0)) } ?? value.string.map { .text($0) } ?? .null
                }
                guard values.values.contains(where: { $0.text.map(id.occurs(in:)) ?? false }) else { continue }
                let key: RowKey =
                    clustered
                    ? primaryKey.map { ($0, Self.data(values[$0] ?? .null)) }
                    : [("rowid", .integer(try row.int("purser_rowid")))]
                found.append((LedgerRow(table: table, values: values), key))
            }
        }
        return found
    }

    private static func data(_ value: LedgerRow.Value) -> SQLiteData {
        switch value {
        case .text(let text): .text(text)
        case .integer(let integer): .integer(Int(integer))
        case .null: .null
        }
    }
}
