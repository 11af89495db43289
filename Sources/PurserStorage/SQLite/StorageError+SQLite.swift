extension StorageError {
    /// Classifies a failure met while talking to SQLite. What means the disk cannot take the write now (full,
    /// read-only, an I/O error, the file cannot be opened, out of memory, locked past the busy timeout) is
    /// `unavailable`: SQLite rolled the statement back, nothing was decided, and the caller may retry once the fault
    /// is gone. Anything else (a constraint, a bad statement) is `queryFailed`. The message never holds SQL or values.
    init(sqlite error: any Error) {
        switch error {
        case let error as StorageError:
            self = error
        case let error as SQLiteFailure where error.meansUnavailable:
            self.init(.unavailable, "the ledger's disk cannot take the write now (\(error))", underlying: error)
        default:
            self.init(.queryFailed, "a ledger query failed", underlying: error)
        }
    }

    /// SQLite's own failures as `StorageError` (see `init(sqlite:)`); any other error as it is.
    static func classifying(_ error: any Error) -> any Error {
        error is SQLiteFailure ? StorageError(sqlite: error) : error
    }
}
