import Foundation
import PurserStorage

extension Purser.BenchSubmit {
    /// What the ledger's write path did per credited submission in a phase: the cause of the rate, not only the rate.
    static func describe(
        _ counts: LedgerWriteCounts, perCredited credited: Int, noun: String = "credited submission"
    ) -> String {
        let per = { (count: Int) in Double(count) / Double(max(credited, 1)) }
        var parts = [
            String(format: "%.2f SQL statements", per(counts.statements)),
            String(format: "%.3f commits (one fsync each)", per(counts.commits)),
        ]
        if let roundTrips = counts.roundTrips {
            parts.append(String(format: "%.2f database round trips", per(roundTrips)))
        }
        if let hops = counts.writerHops {
            parts.append(String(format: "%.3f hops to the writer's thread", per(hops)))
        }
        let batch = counts.commits > 0 ? Double(counts.settlements) / Double(counts.commits) : 0
        let settlements =
            counts.settlements > 0
            ? String(format: " (%d settlements, %.1f per commit)", counts.settlements, batch) : ""
        return "ledger writes per \(noun): " + parts.joined(separator: ", ") + settlements
    }

    /// The writer's thread in a phase of `seconds` (SQLite): how busy it was, its time per settlement, and the rate
    /// that time allows when it is busy all the time. Nil for a store without a writer's thread.
    static func writerLine(_ counts: LedgerWriteCounts, seconds: Double) -> String? {
        guard let busy = counts.writerBusyNanoseconds, let cpu = counts.writerCPUNanoseconds, counts.settlements > 0
        else { return nil }
        let perSettlement = Double(busy) / 1000 / Double(counts.settlements)
        let pages = counts.writerPagesWritten.map { pages in
            String(
                format: "; %.1f pages written to the WAL per commit, %.2f per settlement",
                Double(pages) / Double(max(counts.commits, 1)), Double(pages) / Double(counts.settlements))
        }
        return String(
            format: "writer's thread: busy %.0f%% of the %.2f s, %.1f µs per settlement (wall), %.1f µs of its CPU; "
                + "a writer busy all the time would settle %.0f/s", 100 * Double(busy) / 1e9 / max(seconds, 1e-9),
            seconds, perSettlement, Double(cpu) / 1000 / Double(counts.settlements), 1e6 / max(perSettlement, 1e-9))
            + (pages ?? "")
    }
}
