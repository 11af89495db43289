import Synchronization

/// What a ledger store's write path has done since it opened, for `purser bench submit`, which prints each count per
/// credited submission: the next reader of a rate then sees its cause.
public struct LedgerWriteCounts: Hashable, Sendable {
    /// `settle` calls answered (decided or failed).
    public var settlements: Int
    /// SQL statements run, transaction control (`BEGIN`, `SAVEPOINT`, `COMMIT`) included: on SQLite those of the write
    /// connection, on PostgreSQL every statement the store sent.
    public var statements: Int
    /// Database transactions committed with `COMMIT` (PostgreSQL's single-statement writes commit by themselves and
    /// are not counted): each is one fsync (SQLite's WAL with `synchronous=FULL`, PostgreSQL's with `fsync` and
    /// `synchronous_commit` on).
    public var commits: Int
    /// Round trips to the database server (PostgreSQL: one per statement, postgres-nio does not pipeline); nil for an
    /// embedded store.
    public var roundTrips: Int?
    /// Times work was handed to the writer's thread (SQLite); nil for a store without one.
    public var writerHops: Int?
    /// Time the writer's thread spent running batches, wall clock and its own CPU, in nanoseconds (SQLite); nil for
    /// a store without one. Over a phase's seconds, the busy time is how close the writer is to its ceiling.
    public var writerBusyNanoseconds: Int?
    public var writerCPUNanoseconds: Int?
    /// Pages the writer wrote to the WAL (SQLite; 4 KiB each at the default page size); nil for a store without a writer's thread. Per commit,
    /// what one fsync carries; per settlement, what a settlement costs the disk.
    public var writerPagesWritten: Int?

    public init(
        settlements: Int, statements: Int, commits: Int, roundTrips: Int? = nil, writerHops: Int? = nil,
        writerBusyNanoseconds: Int? = nil, writerCPUNanoseconds: Int? = nil, writerPagesWritten: Int? = nil
    ) {
        self.settlements = settlements
        self.statements = statements
        self.commits = commits
        self.roundTrips = roundTrips
        self.writerHops = writerHops
        self.writerBusyNanoseconds = writerBusyNanoseconds
        self.writerCPUNanoseconds = writerCPUNanoseconds
        self.writerPagesWritten = writerPagesWritten
    }

    /// The counts since `earlier`, a snapshot of the same store.
    public func since(_ earlier: LedgerWriteCounts) -> LedgerWriteCounts {
        LedgerWriteCounts(
            settlements: settlements - earlier.settlements, statements: statements - earlier.statements,
            commits: commits - earlier.commits,
            roundTrips: roundTrips.map { $0 - (earlier.roundTrips ?? 0) },
            writerHops: writerHops.map { $0 - (earlier.writerHops ?? 0) },
            writerBusyNanoseconds: writerBusyNanoseconds.map { $0 - (earlier.writerBusyNanoseconds ?? 0) },
            writerCPUNanoseconds: writerCPUNanoseconds.map { $0 - (earlier.writerCPUNanoseconds ?? 0) },
            writerPagesWritten: writerPagesWritten.map { $0 - (earlier.writerPagesWritten ?? 0) })
    }

    /// Counts added up over several stores (the replicas of one run).
    public static func + (lhs: LedgerWriteCounts, rhs: LedgerWriteCounts) -> LedgerWriteCounts {
        func sum(_ a: Int?, _ b: Int?) -> Int? { a == nil && b == nil ? nil : (a ?? 0) + (b ?? 0) }
        return LedgerWriteCounts(
            settlements: lhs.settlements + rhs.settlements, statements: lhs.statements + rhs.statements,
            commits: lhs.commits + rhs.commits, roundTrips: sum(lhs.roundTrips, rhs.roundTrips),
            writerHops: sum(lhs.writerHops, rhs.writerHops),
            writerBusyNanoseconds: sum(lhs.writerBusyNanoseconds, rhs.writerBusyNanoseconds),
            writerCPUNanoseconds: sum(lhs.writerCPUNanoseconds, rhs.writerCPUNanoseconds),
            writerPagesWritten: sum(lhs.writerPagesWritten, rhs.writerPagesWritten))
    }
}

/// A store's running counts that only the store itself advances.
final class LedgerWriteTally: Sendable {
    private let settlementCount = Atomic(0)
    private let statementCount = Atomic(0)
    private let commitCount = Atomic(0)
    private let roundTripCount = Atomic(0)

    var settlements: Int { settlementCount.load(ordering: .relaxed) }
    var statements: Int { statementCount.load(ordering: .relaxed) }
    var commits: Int { commitCount.load(ordering: .relaxed) }
    var roundTrips: Int { roundTripCount.load(ordering: .relaxed) }

    func settled(_ count: Int = 1) { settlementCount.add(count, ordering: .relaxed) }
    func sent(statements: Int, roundTrips: Int) {
        statementCount.add(statements, ordering: .relaxed)
        roundTripCount.add(roundTrips, ordering: .relaxed)
    }
    func committed() { commitCount.add(1, ordering: .relaxed) }
}
