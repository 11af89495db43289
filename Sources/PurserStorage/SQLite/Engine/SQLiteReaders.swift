import NIOPosix
import Synchronization

/// The ledger's read connections, each on a thread of its own, beside the writer: WAL lets readers run while the
/// writer writes, so a read never waits behind a batch. Each read is one hop and one read transaction: every
/// statement of it sees the same snapshot, which holds everything committed before it began.
final class SQLiteReaders: Sendable {
    /// A read connection. Taken by one read at a time from `idle`, which is what makes handing it across threads sound.
    private final class Connection: @unchecked Sendable {
        let database: SQLiteDatabase
        init(_ database: SQLiteDatabase) { self.database = database }
    }

    private let threads: NIOThreadPool
    /// As many connections as threads, so a running read always finds one.
    private let idle: Mutex<[Connection]>
    private let all: [Connection]

    /// Starts one thread per connection in `databases`, which the readers own from now on.
    init(_ databases: [SQLiteDatabase]) {
        all = databases.map(Connection.init)
        idle = Mutex(all)
        threads = NIOThreadPool(numberOfThreads: databases.count)
        threads.start()
    }

    /// Runs `body` on a read connection inside one read transaction and returns what it returns.
    func read<T: Sendable>(_ body: @escaping @Sendable (SQLiteDatabase) throws -> T) async throws -> T {
        do {
            return try await threads.runIfActive {
                guard let connection = self.idle.withLock({ $0.popLast() }) else {
                    throw StorageError(.corrupt, "a reader thread found no read connection")
                }
                defer { self.idle.withLock { $0.append(connection) } }
                let database = connection.database
                try database.query("BEGIN")
                defer { if database.isInTransaction { _ = try? database.query("COMMIT") } }
                return try body(database)
            }
        } catch let error as NIOThreadPoolError.ThreadPoolInactive {
            throw StorageError(.unavailable, "the SQLite ledger is closed", underlying: error)
        } catch {
            throw StorageError.classifying(error)
        }
    }

    /// Stops the threads once the reads running now are done, then closes the connections.
    func close() async throws {
        try await threads.shutdownGracefully()
        for connection in all { connection.database.close() }
    }
}
