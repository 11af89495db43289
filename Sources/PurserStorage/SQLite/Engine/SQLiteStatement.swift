import CSQLite

/// A prepared statement of one `SQLiteDatabase`: bound, stepped to the end and reset on each use. Not thread-safe;
/// it lives and dies with its connection.
final class SQLiteStatement {
    /// SQLite copies the bytes of a bound text before `sqlite3_bind_text` returns.
    private static let transient = unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)

    let handle: OpaquePointer
    let columns: SQLiteRow.Columns

    init(handle: OpaquePointer) {
        self.handle = handle
        let count = sqlite3_column_count(handle)
        columns = SQLiteRow.Columns(
            names: (0..<count).map { String(cString: sqlite3_column_name(handle, $0)) })
    }

    /// Binds `values` to the parameters in order, runs the statement to its end and returns its rows; the statement
    /// is reset afterwards, whatever happened. `connection` is the statement's own, for the error's message.
    func rows(_ values: [SQLiteData], on connection: OpaquePointer) throws -> [SQLiteRow] {
        defer {
            sqlite3_reset(handle)
            sqlite3_clear_bindings(handle)
        }
        for (offset, value) in values.enumerated() {
            let result = bind(value, at: Int32(offset + 1))
            guard result == SQLITE_OK else { throw SQLiteDatabase.failure(result, on: connection) }
        }
        var rows: [SQLiteRow] = []
        while true {
            let result = sqlite3_step(handle)
            switch result {
            case SQLITE_ROW:
                rows.append(try row())
            case SQLITE_DONE:
                return rows
            default:
                throw SQLiteDatabase.failure(result, on: connection)
            }
        }
    }

    private func bind(_ value: SQLiteData, at index: Int32) -> Int32 {
        switch value {
        case .integer(let number):
            return sqlite3_bind_int64(handle, index, Int64(number))
        case .null:
            return sqlite3_bind_null(handle, index)
        case .text(var text):
            return text.withUTF8 { bytes in
                // An empty buffer may have no address, which SQLite would bind as NULL.
                guard let base = bytes.baseAddress, !bytes.isEmpty else {
                    return sqlite3_bind_text(handle, index, "", 0, Self.transient)
                }
                return base.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
                    sqlite3_bind_text(handle, index, $0, Int32(bytes.count), Self.transient)
                }
            }
        }
    }

    private func row() throws -> SQLiteRow {
        var values: [SQLiteData] = []
        values.reserveCapacity(columns.names.count)
        for column in 0..<Int32(columns.names.count) {
            switch sqlite3_column_type(handle, column) {
            case SQLITE_INTEGER:
                values.append(.integer(Int(sqlite3_column_int64(handle, column))))
            case SQLITE_NULL:
                values.append(.null)
            case SQLITE_TEXT:
                let count = Int(sqlite3_column_bytes(handle, column))
                guard let bytes = sqlite3_column_text(handle, column) else {
                    values.append(.text(""))
                    continue
                }
                values.append(.text(String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)))
            case SQLITE_FLOAT:
                let number = sqlite3_column_double(handle, column)
                guard let exact = Int(exactly: number) else {
                    throw StorageError(.corrupt, "column \(columns.names[Int(column)]) holds a fraction")
                }
                values.append(.integer(exact))
            default:
                throw StorageError(.corrupt, "column \(columns.names[Int(column)]) holds a blob")
            }
        }
        return SQLiteRow(columns: columns, values: values)
    }

    func finalize() {
        sqlite3_finalize(handle)
    }
}
