import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Who has a SQLite ledger open, told by `flock(2)` on `<ledger>.lock` beside it: every store holds a shared lock for
/// as long as it is open (several replicas, the CLI's commands), and `purser restore` takes the exclusive lock, which
/// it gets only while nobody has the ledger open. The kernel drops a killed process's lock.
final class SQLiteLedgerLock: Sendable {
    private let descriptor: Int32

    private init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// The lock file of the ledger at `path`.
    static func path(forLedger path: String) -> String { path + ".lock" }

    /// A shared lock on the ledger at `path`, waiting for an exclusive holder (a restore) to finish.
    static func shared(ledger path: String) throws -> SQLiteLedgerLock {
        let lock = try lockFile(ledger: path)
        guard flock(lock.descriptor, LOCK_SH) == 0 else {
            throw StorageError(.unavailable, "cannot lock \(Self.path(forLedger: path)): errno \(errno)")
        }
        return lock
    }

    /// The exclusive lock on the ledger at `path`, or nil at once when anyone has it open.
    static func exclusive(ledger path: String) throws -> SQLiteLedgerLock? {
        let lock = try lockFile(ledger: path)
        guard flock(lock.descriptor, LOCK_EX | LOCK_NB) == 0 else { return nil }
        return lock
    }

    private static func lockFile(ledger path: String) throws -> SQLiteLedgerLock {
        let descriptor = open(Self.path(forLedger: path), O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw StorageError(.unavailable, "cannot open \(Self.path(forLedger: path)): errno \(errno)")
        }
        return SQLiteLedgerLock(descriptor: descriptor)
    }

    deinit {
        _ = close(descriptor)
    }
}
