import Foundation
import Logging
import NIOPosix
import PurserCore
import Synchronization

/// The embedded ledger: one SQLite file in WAL mode with `synchronous=FULL`, through the system's SQLite. Every write
/// goes to `SQLiteWriter`, one thread with the one write connection, which group-commits: the writes waiting for it
/// share one transaction and one fsync, each in its own savepoint, run start to finish in one hop with statements
/// prepared once, and each caller is answered after that commit. Reads run on `SQLiteReaders`, a few connections on
/// threads of their own, each read in one snapshot; they never wait behind a batch.
public final class SQLiteLedgerStore: LedgerStore {
    let writer: SQLiteWriter
    let readers: SQLiteReaders
    let logger: Logger
    private let tally = LedgerWriteTally()
    /// What every outbox event this store writes is stamped with: a random webhook id, the app.
    public let outbox: OutboxIdentity
    /// Held while the store is open: `purser restore` refuses a ledger someone has open.
    private let lock: Mutex<SQLiteLedgerLock?>

    private init(
        writer: SQLiteWriter, readers: SQLiteReaders, lock: SQLiteLedgerLock?, outbox: OutboxIdentity, logger: Logger
    ) {
        self.writer = writer
        self.outbox = outbox
        self.readers = readers
        self.lock = Mutex(lock)
        self.logger = logger
    }

    /// Read connections a store opens unless told otherwise: enough for the console, metrics and lookups beside a
    /// busy writer on a small machine.
    public static let defaultReaders = 3

    /// Page cache per read connection: 64 MiB (SQLite's default is 2 MiB), so the indexes' inner pages of a large
    /// ledger stay in memory.
    static let cacheSize = "PRAGMA cache_size=-65536"
    /// The writer's page cache: 256 MiB, because every settlement looks up its order and transaction by key there,
    /// and in a ledger of a million purchases the keys' leaf pages no longer fit in 64 MiB.
    static let writerCacheSize = "PRAGMA cache_size=-262144"

    /// Every connection: wait up to 5 s for another process's lock; keep temporary data (a batch's savepoint journal)
    /// in memory, where SQLite would otherwise write it to a temporary file for every large batch.
    static let connectionPragmas = ["PRAGMA busy_timeout=5000", "PRAGMA temp_store=MEMORY"]

    /// Opens (creating if needed, with its directory, owner-only: `OwnerOnlyFiles`) the ledger at `path` with `readers`
    /// read connections. Call `migrate()` before use.
    /// `locked`: hold the shared lock that tells `purser restore` the ledger is open (off for a backup's copy).
    /// `outbox`: what its webhook events are stamped with (the app they name, the ids' randomness).
    public static func open(
        path: String, readers: Int = defaultReaders, locked: Bool = true, outbox: OutboxIdentity = OutboxIdentity(),
        logger: Logger
    ) async throws -> SQLiteLedgerStore {
        do {
            // Opening may wait for another process's lock (the busy timeout): not on the caller's thread.
            let (writer, readConnections, lock) = try await NIOThreadPool.singleton.runIfActive {
                // Owner-only from the start: SQLite gives the -wal and -shm files the ledger's own mode.
                try OwnerOnlyFiles.createDirectory(
                    atPath: URL(fileURLWithPath: path).deletingLastPathComponent().path)
                try OwnerOnlyFiles.createFile(atPath: path)
                let lock = locked ? try SQLiteLedgerLock.shared(ledger: path) : nil
                let writer = try SQLiteDatabase(
                    path: path,
                    pragmas: connectionPragmas + [
                        writerCacheSize, "PRAGMA journal_mode=WAL", "PRAGMA synchronous=FULL", "PRAGMA foreign_keys=ON",
                    ])
                var readConnections: [SQLiteDatabase] = []
                do {
                    for _ in 0..<max(1, readers) {
                        readConnections.append(
                            try SQLiteDatabase(
                                path: path, pragmas: connectionPragmas + [cacheSize, "PRAGMA query_only=1"]))
                    }
                } catch {
                    for connection in readConnections { connection.close() }
                    writer.close()
                    throw error
                }
                return (Unsent(writer), Unsent(readConnections), lock)
            }
            return SQLiteLedgerStore(
                writer: SQLiteWriter(writer.value), readers: SQLiteReaders(readConnections.value), lock: lock,
                outbox: outbox,
                logger: logger)
        } catch {
            throw StorageError(.unavailable, "cannot open the SQLite ledger at \(path)", underlying: error)
        }
    }

    /// Each migration runs in its own `BEGIN IMMEDIATE` transaction, which also reads whether it was applied: another
    /// store migrating the same file at the same moment waits for the write lock and then finds it done.
    public func migrate() async throws { try await migrate(through: .max) }

    /// Applies the migrations up to version `last`, leaving out `skipped`: the upgrade tests build a ledger as an
    /// earlier release left it (released entries are never edited, so the list cut at `last` is that release's).
    func migrate(through last: Int, skipping skipped: Set<Int> = []) async throws {
        let pending = Self.migrations.filter { $0.version <= last && !skipped.contains($0.version) }
        let applied = try await writer.alone { database in
            try database.query(
                "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at INTEGER NOT NULL)"
            )
            var applied: [Int] = []
            for migration in pending {
                try database.query("BEGIN IMMEDIATE")
                do {
                    let done = try database.query(
                        "SELECT 1 FROM schema_migrations WHERE version = ?", [.integer(migration.version)])
                    if done.isEmpty {
                        for statement in migration.statements { try database.execute(statement) }
                        try database.query(
                            "INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)",
                            [.integer(migration.version), .integer(Int(Date().millis))])
                        applied.append(migration.version)
                    }
                    try database.query("COMMIT")
                } catch {
                    if database.isInTransaction { _ = try? database.query("ROLLBACK") }
                    throw error
                }
            }
            return applied
        }
        for version in applied {
            logger.info("applied ledger migration", metadata: ["purser.migration": "\(version)"])
        }
    }

    public func writeCounts() -> LedgerWriteCounts {
        let writes = writer.counts
        return LedgerWriteCounts(
            settlements: tally.settlements, statements: writes.statements, commits: writes.commits,
            writerHops: writes.wakeUps, writerBusyNanoseconds: writes.busyNanoseconds,
            writerCPUNanoseconds: writes.cpuNanoseconds, writerPagesWritten: writes.pagesWritten)
    }

    public func close() async throws {
        try await readers.close()
        try await writer.close()
        lock.withLock { $0 = nil }
    }

    // MARK: - Running statements

    /// Runs `write` on the writer, in a transaction it may share with other writes (group commit), and returns once
    /// that transaction has committed.
    @discardableResult
    func write<T: Sendable>(_ write: @escaping @Sendable (SQLiteDatabase) throws -> T) async throws -> T {
        try await writer.perform(write)
    }

    /// Counts one settlement for `writeCounts()`.
    func countSettlement() { tally.settled() }

    /// Runs `body` on a read connection, in one snapshot.
    func reading<T: Sendable>(_ body: @escaping @Sendable (SQLiteDatabase) throws -> T) async throws -> T {
        try await readers.read(body)
    }

    /// One read query's rows.
    func read(_ sql: String, _ binds: [SQLiteData]) async throws -> [SQLiteRow] {
        try await reading { try $0.query(sql, binds) }
    }
}

/// A value handed from the thread that made it to the one that owns it next, and never touched by the first again.
struct Unsent<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
