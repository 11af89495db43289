import SQLiteNIO

extension StorageError {
    /// Classifies a failure met while talking to SQLite. What means the disk cannot take the write now (full,
    /// read-only, an I/O error, the file cannot be opened, out of memory, locked past the busy timeout) is
    /// `unavailable`: SQLite rolled the statement back, nothing was decided, and the caller may retry once the fault
    /// is gone. Anything else (a constraint, a bad statement) is `queryFailed`. The message never holds SQL or values.
    init(sqlite error: any Error) {
        switch error {
        case let error as StorageError:
            self = error
        case let error as SQLiteError where SQLiteFault.meansUnavailable(error.reason):
            self.init(.unavailable, "the ledger's disk cannot take the write now (\(error.reason))", underlying: error)
        default:
            self.init(.queryFailed, "a ledger query failed", underlying: error)
        }
    }
}

/// The SQLite result codes that mean a fault of the disk or the process rather than of the statement.
enum SQLiteFault {
    /// The primary result codes (and every extended code of their families): SQLITE_FULL, SQLITE_READONLY,
    /// SQLITE_IOERR, SQLITE_CANTOPEN, SQLITE_NOMEM, SQLITE_BUSY, SQLITE_LOCKED, SQLITE_PERM. SQLiteNIO names the
    /// extended codes after their family (`ioErrorFailedWrite`, `readonlyDirectory`, …) and keeps their numbers
    /// internal, so the family is read from the case's name.
    static func meansUnavailable(_ reason: SQLiteError.Reason) -> Bool {
        let name = String(describing: reason).lowercased()
        return families.contains { name.hasPrefix($0) }
    }

    static let families = ["full", "readonly", "ioerror", "cantopen", "nomemory", "busy", "locked", "permission"]
}
