import Foundation
import PurserCore
import PurserStorage
import Testing

extension LedgerStoreConformance {
    /// The dashboard's timeline: credits and revokes counted in the hour they were audited, every decision in the
    /// mix, and the sampler's queue sizes in order, the ones before the cutoff forgotten and a repeat dropped.
    public func drawsTheDashboardsTimeline() async throws {
        let hour = now.addingTimeInterval(400 * 86_400)  // after every other check's rows, on the hour
        try await creditedEvent("t-tl-1", user: "tl-ann", at: hour + 60)
        try await creditedEvent("t-tl-2", user: "tl-bo", at: hour + 120)
        let refund = Revocation(transactionID: "t-tl-2", date: hour, type: .refundFull, percentage: 100_000, cause: "r")
        _ = try await store.revoke(refund, now: hour + 3_700)
        let refused = Submission(
            transaction: transaction("t-tl-3", token: nil), assessment: .rejected(.unknownProduct("gold60")),
            source: .client("tl-cy"))
        _ = try await store.settle(refused, now: hour + 3_800)

        let timeline = try await store.timeline(since: hour)
        #expect(
            timeline.hours == [
                .init(start: hour, credits: 2, revokes: 0), .init(start: hour + 3_600, credits: 0, revokes: 1),
            ])
        #expect(timeline.decisions["credited"] == 2 && timeline.decisions["revoked"] == 1)
        #expect(timeline.decisions["rejected"] == 1)
        #expect(try await store.timeline(since: hour + 7_200).hours.isEmpty)

        let samples = (0..<3).map { QueueSample(at: hour + Double($0) * 300, webhookBacklog: $0, unbound: 2 * $0) }
        for sample in samples { try await store.recordQueueSample(sample, forgettingBefore: hour - 86_400) }
        try await store.recordQueueSample(
            QueueSample(at: hour, webhookBacklog: 99, unbound: 99), forgettingBefore: hour - 86_400)
        #expect(try await store.timeline(since: hour).samples == samples, "in order; the repeat at one moment dropped")
        try await store.recordQueueSample(
            QueueSample(at: hour + 900, webhookBacklog: 7, unbound: 1), forgettingBefore: hour + 300)
        #expect(
            try await store.timeline(since: hour - 86_400).samples.map(\.webhookBacklog) == [1, 2, 7],
            "samples before the cutoff are forgotten")
        try await drainUndispatched()
    }
}
