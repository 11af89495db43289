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
}
