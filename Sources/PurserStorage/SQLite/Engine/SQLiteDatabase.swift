import CSQLite

/// One connection to the ledger's SQLite file, used by one thread at a time: the writer's own thread, or a reader's
/// (`SQLiteWriter`, `SQLiteReaders`). Statements are prepared once and kept, keyed by their SQL text, so a settlement
/// spends nothing on parsing SQL after the first.
final class SQLiteDatabase {
    /// The most statements kept prepared; SQL built with a varying number of parameters beyond that is prepared and
    /// finalized on each use.
    static let cacheLimit = 256

    private let handle: OpaquePointer
    private var statements: [String: SQLiteStatement] = [:]
    /// Statements run on this connection since it opened (each `query` or `run` is one; `execute` counts its text as
    /// one): what `purser bench submit` reports per settlement.
    private(set) var statementsRun = 0

    /// Opens (creating if needed) the database at `path` in read-write mode; `pragmas` run first, in order.
    init(path: String, pragmas: [String]) throws {
        var opened: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let result = sqlite3_open_v2(path, &opened, flags, nil)
        guard result == SQLITE_OK, let opened else {
            let failure = opened.map { Self.failure(result, on: $0) } ?? SQLiteFailure(code: result, message: "")
            sqlite3_close_v2(opened)
            throw failure
        }
        handle = opened
        sqlite3_extended_result_codes(handle, 1)
        do {
            for pragma in pragmas { try execute(pragma) }
        } catch {
            sqlite3_close_v2(handle)
            throw error
        }
    }

    /// Runs `sql` (one statement or several, with no parameters) for its effect, without keeping it prepared.
    func execute(_ sql: String) throws {
        statementsRun += 1
        let result = sqlite3_exec(handle, sql, nil, nil, nil)
        guard result == SQLITE_OK else { throw Self.failure(result, on: handle) }
    }

    /// Runs one statement with `binds` and returns all its rows.
    @discardableResult
    func query(_ sql: String, _ binds: [SQLiteData] = []) throws -> [SQLiteRow] {
        statementsRun += 1
        if let statement = statements[sql] {
            return try statement.rows(binds, on: handle)
        }
        let statement = try prepare(sql)
        guard statements.count < Self.cacheLimit else {
            defer { statement.finalize() }
            return try statement.rows(binds, on: handle)
        }
        statements[sql] = statement
        return try statement.rows(binds, on: handle)
    }

    /// Pages this connection has written to the file since it opened: with WAL, the frames its commits appended (a
    /// checkpoint's copies into the database file are not counted). What `purser bench submit` reports per commit.
    var pagesWritten: Int {
        var current: Int32 = 0
        var highest: Int32 = 0
        sqlite3_db_status(handle, SQLITE_DBSTATUS_CACHE_WRITE, &current, &highest, 0)
        return Int(current)
    }

    /// How many rows the last `INSERT`, `UPDATE` or `DELETE` changed.
    var changes: Int { Int(sqlite3_changes(handle)) }

    /// True between `BEGIN` and the `COMMIT` or `ROLLBACK` that ends it, also when SQLite rolled back by itself.
    var isInTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

    /// Finalizes every kept statement and closes the connection.
    func close() {
        for statement in statements.values { statement.finalize() }
        statements.removeAll()
        sqlite3_close_v2(handle)
    }

    private func prepare(_ sql: String) throws -> SQLiteStatement {
        var prepared: OpaquePointer?
        let result = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &prepared, nil)
        guard result == SQLITE_OK, let prepared else { throw Self.failure(result, on: handle) }
        return SQLiteStatement(handle: prepared)
    }

    /// The failure `result` on `connection`, with SQLite's message for it.
    static func failure(_ result: Int32, on connection: OpaquePointer) -> SQLiteFailure {
        SQLiteFailure(code: result, message: String(cString: sqlite3_errmsg(connection)))
    }
}
