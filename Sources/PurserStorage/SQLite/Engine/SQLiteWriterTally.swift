import Synchronization

/// Counts of what an `SQLiteWriter` has done, kept with atomics so that any thread may read them while it writes.
final class SQLiteWriterTally: Sendable {
    struct Counts: Hashable, Sendable {
        /// Writes run (grouped or alone), whatever their outcome.
        var writes = 0
        /// Transactions committed by group commit: each is one fsync of the WAL with `synchronous=FULL`.
        var commits = 0
        /// Times the writer's thread was woken up with work: the hops from callers to the writer.
        var wakeUps = 0
        /// SQL statements run on the write connection, `BEGIN`, `SAVEPOINT`, `RELEASE` and `COMMIT` included.
        var statements = 0
    }

    private let writes = Atomic(0)
    private let commits = Atomic(0)
    private let wakeUps = Atomic(0)
    private let statements = Atomic(0)

    var counts: Counts {
        Counts(
            writes: writes.load(ordering: .relaxed), commits: commits.load(ordering: .relaxed),
            wakeUps: wakeUps.load(ordering: .relaxed), statements: statements.load(ordering: .relaxed))
    }

    func wokeUp() {
        wakeUps.add(1, ordering: .relaxed)
    }

    /// A batch (or a write alone) ran; `statements` is the connection's running total afterwards.
    func ran(writes count: Int, committed: Bool, statements total: Int) {
        writes.add(count, ordering: .relaxed)
        if committed { commits.add(1, ordering: .relaxed) }
        statements.store(total, ordering: .relaxed)
    }
}
