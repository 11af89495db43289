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
            merged.uncharged = (merged.uncharged ?? [:]).merging(result.uncharged ?? [:], uniquingKeysWith: +)
            merged.counts.merge(result.counts, uniquingKeysWith: +)
            merged.faultPhaseSeconds = max(merged.faultPhaseSeconds, result.faultPhaseSeconds)
            merged.healSeconds = max(merged.healSeconds, result.healSeconds)
            merged.violations = Array((merged.violations + result.violations).prefix(50))
        }
        merged.purchasesPerSecond = Double(merged.purchases) / max(merged.faultPhaseSeconds, 0.001)
        return merged
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
