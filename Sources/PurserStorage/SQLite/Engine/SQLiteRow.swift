/// One row of a result, its values in column order, readable by column name.
struct SQLiteRow: Sendable {
    /// The column names of the statement that produced the row, shared by all its rows.
    final class Columns: Sendable {
        let names: [String]
        let index: [String: Int]

        init(names: [String]) {
            self.names = names
            var index: [String: Int] = [:]
            for (position, name) in names.enumerated() where index[name] == nil { index[name] = position }
            self.index = index
        }
    }

    let columns: Columns
    let values: [SQLiteData]

    /// The value of column `name`, or nil when the statement has no such column.
    func column(_ name: String) -> SQLiteData? {
        columns.index[name].map { values[$0] }
    }

    func text(_ name: String) throws -> String {
        guard let value = column(name)?.string else { throw StorageError(.corrupt, "column \(name) is missing") }
        return value
    }

    func int(_ name: String) throws -> Int {
        guard let value = column(name)?.integer else { throw StorageError(.corrupt, "column \(name) is missing") }
        return value
    }

    func optionalText(_ name: String) -> String? {
        column(name)?.string
    }

    func optionalInt(_ name: String) -> Int? {
        column(name)?.integer
    }
}
