import PurserCore
import SQLiteNIO
import Synchronization

/// Group commit for the SQLite writer: the writes waiting for the writer commit together, in one
/// `BEGIN IMMEDIATE … COMMIT` (one fsync with `synchronous=FULL` instead of one each), each inside its own
/// `SAVEPOINT`, so a write that fails is rolled back alone and sinks no other. No caller is answered before the
/// `COMMIT` that holds its write has returned; if that `COMMIT` fails, every write of the batch fails.
///
/// No task runs in the background: a caller queues its write, then takes the store's write lock, and whoever holds
/// the lock commits the writes queued so far, its own and the others'. A caller whose write an earlier holder
/// committed finds its answer ready when it gets the lock.
final class SQLiteGroupCommit: Sendable {
    /// One queued write and, once its batch has committed (or failed), its answer.
    private final class Ticket: Sendable {
        let write: @Sendable (SQLiteConnection) async throws -> any Sendable
        let outcome = Mutex<Result<any Sendable, any Error>?>(nil)

        init(_ write: @escaping @Sendable (SQLiteConnection) async throws -> any Sendable) {
            self.write = write
        }
    }

    private let writer: SQLiteConnection
    private let lock: AsyncSerialLock
    private let queue = Mutex<[Ticket]>([])
    private let committed = Atomic<Int>(0)
    /// The most writes one transaction holds, so that a long queue does not make its first callers wait for all.
    let batchLimit: Int

    /// Group commit on `writer`; `lock` is the store's write lock, which every other writer takes too.
    init(writer: SQLiteConnection, lock: AsyncSerialLock, batchLimit: Int = 512) {
        self.writer = writer
        self.lock = lock
        self.batchLimit = batchLimit
    }

    /// Transactions committed so far by group commit (for tests: fewer than the writes when they were grouped).
    var batchesCommitted: Int { committed.load(ordering: .relaxed) }

    /// Runs `write` on the writer inside a transaction it may share with other writes, and returns its result once
    /// that transaction has committed. `write` must not begin, commit or roll back a transaction itself.
    func perform<T: Sendable>(_ write: @escaping @Sendable (SQLiteConnection) async throws -> T) async throws -> T {
        let ticket = Ticket { try await write($0) }
        queue.withLock { $0.append(ticket) }
        let outcome = try await lock.withLock {
            while true {
                if let outcome = ticket.outcome.withLock({ $0 }) { return outcome }
                let batch = queue.withLock { queued in
                    let taken = Array(queued.prefix(batchLimit))
                    queued.removeFirst(taken.count)
                    return taken
                }
                // Whoever took this write answered it before letting go of the lock, so it is queued still.
                guard !batch.isEmpty else { throw StorageError(.corrupt, "a grouped write was lost") }
                await commit(batch)
            }
        }
        guard let value = try outcome.get() as? T else {
            throw StorageError(.corrupt, "a grouped write returned a value of an unexpected type")
        }
        return value
    }

    /// Runs `writes` as one transaction, each in its own savepoint, and returns their outcomes in order: what
    /// `perform` does for the writes it finds queued. Internal so tests can choose what one batch holds.
    func commitTogether(_ writes: [@Sendable (SQLiteConnection) async throws -> any Sendable]) async throws
        -> [Result<any Sendable, any Error>]
    {
        let tickets = writes.map(Ticket.init)
        try await lock.withLock { await self.commit(tickets) }
        return tickets.map { ticket in
            ticket.outcome.withLock { $0 } ?? .failure(StorageError(.corrupt, "a grouped write was not answered"))
        }
    }

    private func commit(_ batch: [Ticket]) async {
        guard !batch.isEmpty else { return }
        var outcomes: [Result<any Sendable, any Error>] = []
        outcomes.reserveCapacity(batch.count)
        do {
            try await execute("BEGIN IMMEDIATE")
            for ticket in batch {
                try await execute("SAVEPOINT grouped_write")
                do {
                    let value = try await ticket.write(writer)
                    try await execute("RELEASE grouped_write")
                    outcomes.append(.success(value))
                } catch {
                    // This write alone is undone. If SQLite rolled back the whole transaction already (a full disk,
                    // an I/O error), the savepoint is gone with it, and the whole batch fails with this write's error.
                    do {
                        try await execute("ROLLBACK TO grouped_write")
                        try await execute("RELEASE grouped_write")
                    } catch _ {
                        throw error
                    }
                    outcomes.append(.failure(error))
                }
            }
            try await execute("COMMIT")
        } catch {
            _ = try? await writer.query("ROLLBACK")
            let failure = StorageError(sqlite: error)
            for ticket in batch { ticket.outcome.withLock { $0 = .failure(failure) } }
            return
        }
        committed.add(1, ordering: .relaxed)
        for (ticket, outcome) in zip(batch, outcomes) { ticket.outcome.withLock { $0 = outcome } }
    }

    private func execute(_ sql: String) async throws {
        _ = try await writer.query(sql)
    }
}
