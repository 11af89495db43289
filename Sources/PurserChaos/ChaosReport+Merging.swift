import Foundation

// A studio run's apps (`--apps`) each report as a single app does; the run's report adds them up.
extension ChaosReport.StrategyResult {
    /// The apps' results as one: counts added, the slowest phase's seconds, the first violations of each.
    static func merged(_ results: [Self]) -> Self {
        var merged = results[0]
        for result in results.dropFirst() {
            merged.purchases += result.purchases
            merged.charged += result.charged
            merged.refunded += result.refunded
            merged.partlyRefunded += result.partlyRefunded
            merged.lateCharges += result.lateCharges
            merged.counts.merge(result.counts, uniquingKeysWith: +)
            merged.faultPhaseSeconds = max(merged.faultPhaseSeconds, result.faultPhaseSeconds)
            merged.healSeconds = max(merged.healSeconds, result.healSeconds)
            merged.violations = Array((merged.violations + result.violations).prefix(50))
        }
        merged.purchasesPerSecond = Double(merged.purchases) / max(merged.faultPhaseSeconds, 0.001)
        return merged
    }
}

extension ChaosReport.FamilyRow {
    /// Each family's rows of every app added up; the App Store Server API's faults are the run's own count.
    static func summed(_ lanes: [[Self]], serverAPIFaults: Int) -> [Self] {
        guard var rows = lanes.first else { return [] }
        for lane in lanes.dropFirst() {
            for (index, row) in lane.enumerated() where index < rows.count {
                rows[index].injected += row.injected
                rows[index].healed += row.healed
                rows[index].violations += row.violations
            }
        }
        for index in rows.indices where rows[index].family == .serverAPIErrors {
            // Each app's row counted 0 injected and − its broken purchases as healed.
            rows[index].healed += serverAPIFaults
            rows[index].injected = serverAPIFaults
        }
        return rows
    }
}

extension ChaosReport.Webhooks {
    /// Every app's outbox and game backend added up; the longest drain.
    static func summed(_ all: [Self]) -> Self {
        var total = all[0]
        for webhooks in all.dropFirst() {
            total.events += webhooks.events
            total.delivered += webhooks.delivered
            total.dead += webhooks.dead
            total.undelivered += webhooks.undelivered
            total.attempts += webhooks.attempts
            total.retries += webhooks.retries
            total.posts += webhooks.posts
            total.applied += webhooks.applied
            total.duplicates += webhooks.duplicates
            total.faulted += webhooks.faulted
            total.refused += webhooks.refused
            total.drainSeconds = max(total.drainSeconds, webhooks.drainSeconds)
        }
        return total
    }
}

extension SpendingBackend.Tally {
    /// Adds another app's spending backend.
    mutating func add(_ other: Self) {
        spends += other.spends
        refused += other.refused
        holds += other.holds
        captured += other.captured
        voided += other.voided
        expiring += other.expiring
        replays += other.replays
        unanswered += other.unanswered
    }
}
