import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

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
        /// Pages the write connection has written to the WAL (`SQLiteDatabase.pagesWritten`).
        var pagesWritten = 0
        /// Nanoseconds the writer's thread spent running batches (wall clock, from `BEGIN` to the last answer).
        var busyNanoseconds = 0
        /// CPU nanoseconds the writer's thread spent running batches (its own thread CPU clock).
        var cpuNanoseconds = 0
    }

    private let writes = Atomic(0)
    private let commits = Atomic(0)
    private let wakeUps = Atomic(0)
    private let statements = Atomic(0)
    private let pages = Atomic(0)
    private let busy = Atomic(0)
    private let cpu = Atomic(0)

    var counts: Counts {
        Counts(
            writes: writes.load(ordering: .relaxed), commits: commits.load(ordering: .relaxed),
            wakeUps: wakeUps.load(ordering: .relaxed), statements: statements.load(ordering: .relaxed),
            pagesWritten: pages.load(ordering: .relaxed),
            busyNanoseconds: busy.load(ordering: .relaxed), cpuNanoseconds: cpu.load(ordering: .relaxed))
    }

    /// Runs one batch on the writer's thread, adding its wall and thread CPU time to the counts.
    func timing<T>(_ batch: () -> T) -> T {
        let (wall, thread) = (Self.clock(CLOCK_MONOTONIC), Self.clock(CLOCK_THREAD_CPUTIME_ID))
        defer {
            busy.add(Self.clock(CLOCK_MONOTONIC) - wall, ordering: .relaxed)
            cpu.add(Self.clock(CLOCK_THREAD_CPUTIME_ID) - thread, ordering: .relaxed)
        }
        return batch()
    }

    private static func clock(_ id: clockid_t) -> Int {
        var now = timespec()
        clock_gettime(id, &now)
        return now.tv_sec * 1_000_000_000 + now.tv_nsec
    }

    func wokeUp() {
        wakeUps.add(1, ordering: .relaxed)
    }

    /// A batch (or a write alone) ran on `database`; its running totals are read afterwards.
    func ran(writes count: Int, committed: Bool, on database: SQLiteDatabase) {
        writes.add(count, ordering: .relaxed)
        if committed { commits.add(1, ordering: .relaxed) }
        statements.store(database.statementsRun, ordering: .relaxed)
        pages.store(database.pagesWritten, ordering: .relaxed)
    }
}
