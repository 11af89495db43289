import NIOPosix
import Synchronization

/// The ledger's one writer: a thread of its own holding the one write connection, with group commit. A caller hands
/// it a write and waits; the thread takes every write waiting at that moment (up to `batchLimit`) and runs them, start
/// to finish, in one hop: `BEGIN IMMEDIATE`, each write in its own `SAVEPOINT` (a write that fails is rolled back
/// alone and sinks no other), one `COMMIT` (one fsync with `synchronous=FULL`), then answers every caller. No caller
/// is answered before the `COMMIT` holding its write has returned; if that `COMMIT` fails, every write of the batch
/// fails. Writes that must run outside any transaction (migrations, which begin their own) run `alone`.
final class SQLiteWriter: Sendable {
    /// The write connection. Only the writer's thread touches it, one batch at a time (and `close` once the thread
    /// has stopped), which is what makes handing it across threads sound.
    private final class Connection: @unchecked Sendable {
        let database: SQLiteDatabase
        init(_ database: SQLiteDatabase) { self.database = database }
    }

    /// One write and the caller waiting for its outcome.
    private struct Ticket: Sendable {
        let write: @Sendable (SQLiteDatabase) throws -> any Sendable
        let alone: Bool
        let caller: CheckedContinuation<any Sendable, any Error>
    }

    private struct Queue {
        var waiting: [Ticket] = []
        /// True while the thread has work in hand: a new write then only joins the queue.
        var draining = false
        var closed = false
    }

    private let thread: NIOThreadPool
    private let connection: Connection
    private let queue = Mutex(Queue())
    private let tally = SQLiteWriterTally()
    /// The most writes one transaction holds, so that a long queue does not make its first callers wait for all.
    let batchLimit: Int

    /// Starts the writer's thread on `database`, which the writer owns from now on.
    init(_ database: SQLiteDatabase, batchLimit: Int = 512) {
        connection = Connection(database)
        self.batchLimit = batchLimit
        thread = NIOThreadPool(numberOfThreads: 1)
        thread.start()
    }

    /// What the writer has done so far.
    var counts: SQLiteWriterTally.Counts { tally.counts }

    /// Writes queued and not taken by the thread yet.
    var waitingCount: Int { queue.withLock { $0.waiting.count } }

    /// Runs `write` on the writer's thread inside a transaction it may share with other writes, and returns its
    /// result once that transaction has committed. `write` must not begin, commit or roll back a transaction itself.
    func perform<T: Sendable>(_ write: @escaping @Sendable (SQLiteDatabase) throws -> T) async throws -> T {
        try await enqueue(alone: false, write)
    }

    /// Runs `work` on the writer's thread outside any transaction, between two batches (it manages its own).
    func alone<T: Sendable>(_ work: @escaping @Sendable (SQLiteDatabase) throws -> T) async throws -> T {
        try await enqueue(alone: true, work)
    }

    /// Stops the thread once the writes queued so far are done, then closes the connection.
    func close() async throws {
        queue.withLock { $0.closed = true }
        try await thread.shutdownGracefully()
        connection.database.close()
    }

    private func enqueue<T: Sendable>(alone: Bool, _ write: @escaping @Sendable (SQLiteDatabase) throws -> T)
        async throws -> T
    {
        let value = try await withCheckedThrowingContinuation {
            (caller: CheckedContinuation<any Sendable, any Error>) in
            let ticket = Ticket(write: { try write($0) }, alone: alone, caller: caller)
            let wake = queue.withLock { queue -> Bool? in
                guard !queue.closed else { return nil }
                queue.waiting.append(ticket)
                guard !queue.draining else { return false }
                queue.draining = true
                return true
            }
            switch wake {
            case nil: caller.resume(throwing: StorageError(.unavailable, "the SQLite ledger is closed"))
            case false?: break
            case true?:
                tally.wokeUp()
                thread.submit { state in
                    guard state == .active else { return self.failQueued() }
                    self.drain()
                }
            }
        }
        guard let result = value as? T else {
            throw StorageError(.corrupt, "a write returned a value of an unexpected type")
        }
        return result
    }

    /// On the writer's thread: runs batches until the queue is empty.
    private func drain() {
        while true {
            let batch = queue.withLock { queue -> [Ticket] in
                guard let first = queue.waiting.first else {
                    queue.draining = false
                    return []
                }
                guard !first.alone else { return [queue.waiting.removeFirst()] }
                let count = queue.waiting.prefix(batchLimit).prefix { !$0.alone }.count
                defer { queue.waiting.removeFirst(count) }
                return Array(queue.waiting.prefix(count))
            }
            guard let first = batch.first else { return }
            let database = connection.database
            tally.timing {
                if first.alone {
                    let outcome = Result { try first.write(database) }
                    tally.ran(writes: 1, committed: false, on: database)
                    first.caller.resume(with: outcome.mapError(StorageError.classifying))
                } else {
                    commit(batch, on: database)
                }
            }
        }
    }

    private func commit(_ batch: [Ticket], on database: SQLiteDatabase) {
        var outcomes: [Result<any Sendable, any Error>] = []
        outcomes.reserveCapacity(batch.count)
        do {
            try database.query("BEGIN IMMEDIATE")
            for ticket in batch {
                try database.query("SAVEPOINT grouped_write")
                do {
                    let value = try ticket.write(database)
                    try database.query("RELEASE grouped_write")
                    outcomes.append(.success(value))
                } catch {
                    // This write alone is undone. If SQLite rolled back the whole transaction already (a full disk,
                    // an I/O error), the savepoint is gone with it, and the whole batch fails with this write's error.
                    guard database.isInTransaction else { throw error }
                    do {
                        try database.query("ROLLBACK TO grouped_write")
                        try database.query("RELEASE grouped_write")
                    } catch _ {
                        throw error
                    }
                    outcomes.append(.failure(error))
                }
            }
            try database.query("COMMIT")
        } catch {
            if database.isInTransaction { _ = try? database.query("ROLLBACK") }
            tally.ran(writes: batch.count, committed: false, on: database)
            let failure = StorageError(sqlite: error)
            for ticket in batch { ticket.caller.resume(throwing: failure) }
            return
        }
        tally.ran(writes: batch.count, committed: true, on: database)
        for (ticket, outcome) in zip(batch, outcomes) {
            ticket.caller.resume(with: outcome.mapError(StorageError.classifying))
        }
    }

    /// The thread is gone: every queued write fails, nothing of it was written.
    private func failQueued() {
        let waiting = queue.withLock { queue in
            defer {
                queue.waiting.removeAll()
                queue.draining = false
            }
            return queue.waiting
        }
        for ticket in waiting {
            ticket.caller.resume(throwing: StorageError(.unavailable, "the SQLite ledger is closed"))
        }
    }
}
