import Foundation

// What a run cost as it went: the rate of each tenth of its purchases and the memory it held.
extension ChaosReport.StrategyResult {
    /// The report's lines on rate by tenth and memory; none for a result without tenths.
    var costLines: [String] {
        var lines: [String] = []
        if let tenths, !tenths.isEmpty {
            let rates = tenths.map { String(format: "%.0f", $0.purchasesPerSecond) }.joined(separator: " ")
            lines.append(
                "Rate by tenth of the purchases (purchases/s): \(rates)"
                    + (tenths.lastOverFirst.map {
                        String(
                            format: "; first %.0f/s, last %.0f/s, last/first %.2f", tenths[0].purchasesPerSecond,
                            tenths[tenths.count - 1].purchasesPerSecond, $0)
                    } ?? ""))
            let replicas = tenths.first?.replicasResident.count ?? 0
            for replica in 0..<replicas {
                let resident = tenths.map {
                    $0.replicasResident.indices.contains(replica) ? $0.replicasResident[replica] : 0
                }
                lines.append(
                    "Replica \(replica + 1) resident after each tenth: "
                        + resident.map(ProcessMemory.text).joined(separator: " "))
            }
        }
        if let harness = harnessPeakResident {
            let replicas = replicasPeakResident ?? []
            lines.append(
                "Peak memory: harness \(ProcessMemory.text(harness))"
                    + (replicas.isEmpty
                        ? " (server in process)"
                        : ", replicas " + replicas.map(ProcessMemory.text).joined(separator: " ")
                            + ", together at most \(ProcessMemory.text(harness + replicas.reduce(0, +)))")
                    + " (VmHWM, or a tenth's reading above it)")
        }
        return lines
    }
}
