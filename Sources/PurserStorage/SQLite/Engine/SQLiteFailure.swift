import CSQLite

/// An error SQLite reported: its extended result code and message. The ledger turns it into a `StorageError`
/// (`StorageError(sqlite:)`); the message may name tables and columns but never holds bound values.
struct SQLiteFailure: Error, Hashable, Sendable, CustomStringConvertible {
    /// SQLite's extended result code (`SQLITE_IOERR_WRITE`, `SQLITE_CONSTRAINT_PRIMARYKEY`, …).
    let code: Int32
    let message: String

    /// The primary result code: the family of `code` (`SQLITE_IOERR`, `SQLITE_CONSTRAINT`, …).
    var primary: Int32 { code & 0xFF }

    /// A constraint (unique, primary key, foreign key, not null, check) refused the write.
    var isConstraint: Bool { primary == SQLITE_CONSTRAINT }

    /// A fault of the disk or the process rather than of the statement: the disk is full, the file read-only or
    /// unreadable, memory ran out, or another process held the lock past the busy timeout. SQLite rolled the
    /// statement back; nothing was decided, and the same write may succeed once the fault is gone.
    var meansUnavailable: Bool {
        [
            SQLITE_FULL, SQLITE_READONLY, SQLITE_IOERR, SQLITE_CANTOPEN, SQLITE_NOMEM, SQLITE_BUSY, SQLITE_LOCKED,
            SQLITE_PERM,
        ]
        .contains(primary)
    }

    /// SQLite's name for the code (`disk I/O error`, `database or disk is full`, …) and its message.
    var description: String {
        "\(String(cString: sqlite3_errstr(code))) (\(code)): \(message)"
    }
}
