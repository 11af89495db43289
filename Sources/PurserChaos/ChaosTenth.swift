/// One tenth of a strategy's purchases, in the order they finished: how fast that tenth went, and the memory resident
/// when it ended. A run whose cost grows with every purchase shows it here: the last tenth slower than the first, or
/// memory that keeps climbing.
public struct ChaosTenth: Codable, Sendable, Hashable {
    /// Purchases of this tenth per second of the tenth's own time.
    public var purchasesPerSecond: Double
    /// Seconds since the strategy began, when this tenth's last purchase finished.
    public var endedAtSeconds: Double
    /// The harness's resident memory (bytes) at the tenth's end; with the server in process, the server's too.
    public var harnessResident: Int
    /// Each `purser serve` replica's resident memory (bytes) at the tenth's end, in replica order (0: not running);
    /// empty with the server in process.
    public var replicasResident: [Int]
}

extension [ChaosTenth] {
    /// The last tenth's rate over the first's: 1 is flat, below 1 the run slowed down.
    public var lastOverFirst: Double? {
        guard let first, let last, first.purchasesPerSecond > 0 else { return nil }
        return last.purchasesPerSecond / first.purchasesPerSecond
    }
}
