import Foundation
import PurserCore
import PurserStorage
import Testing

/// Retention: what is kept only for a while goes, nothing else. It prunes everything earlier checks left that is old
/// enough, so it runs last but one, and the integrity check after it finds nothing broken.
extension LedgerStoreConformance {
    /// A fully delivered event older than the cutoff loses its payload (and cannot be replayed); a failed, an
    /// unfanned or a recent one keeps it. Processed notifications older than the cutoff go, never the newest and
    /// never an unprocessed one; expired leases go. Each kind at most `limit` per call.
    public func prunesOnlyWhatIsKeptForAWhile() async throws {
        try await drainUndispatched()
        let (old, recent) = (now + 20_000, now + 40_000)
        _ = try await store.prune(before: old - 1_000, limit: 10_000, now: old)  // what earlier checks left
        let route = WebhookRoute(endpoint: "https://retention.example/hooks")
        try await creditedEvent("t-kept-delivered", user: "retained", at: old)
        try await creditedEvent("t-kept-failing", user: "retained-2", at: old)
        #expect(try await store.dispatchWebhookEvents(to: [route], limit: 100, now: old) == 2)
        let claims = try await store.claimWebhookDeliveries(
            endpoint: route.endpoint, holder: "r", until: old + 30, limit: 10, now: old)
        let (delivered, failing) = (try await eventID("t-kept-delivered"), try await eventID("t-kept-failing"))
        try await store.finishWebhookAttempts(
            claims.map { claim in
                WebhookDelivery.Attempt(
                    deliveryId: claim.deliveryId,
                    outcome: claim.id == delivered ? .delivered : .failed(retryAt: recent),
                    result: "HTTP 204")
            }, holder: "r", now: old + 1)
        try await creditedEvent("t-kept-unfanned", user: "retained-3", at: old)
        try await creditedEvent("t-kept-recent", user: "retained-4", at: recent)
        for (uuid, received, processed) in [
            ("n-old-1", old, true), ("n-old-2", old + 1, true), ("n-old-open", old, false), ("n-new", recent, true),
        ] {
            _ = try await store.recordNotification(
                NotificationRecord(
                    uuid: uuid, type: "ONE_TIME_CHARGE", subtype: nil, transactionID: nil, environment: "Sandbox",
                    signedDate: received, receivedAt: received))
            if processed { try await store.markNotificationProcessed(uuid: uuid, outcome: "credited", at: received) }
        }
        for (id, at) in [("t-traced-old", old), ("t-traced-recent", recent)] {
            var traced = Submission(
                transaction: transaction(id, token: nil), assessment: .creditable(gold), source: .client("retained-5"))
            traced.traceParent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
            _ = try await store.settle(traced, now: at)
        }
        #expect(try await store.acquireLease("retention-old", holder: "r", until: old, now: old - 10))
        #expect(try await store.acquireLease("retention-live", holder: "r", until: recent + 10_000, now: recent))

        let cutoff = old + 1_000
        #expect(
            try await store.prune(before: cutoff, limit: 1, now: recent)
                == LedgerPruning(eventPayloads: 1, notifications: 1, leases: 1, traceLinks: 1),
            "one of each: the limit holds")
        #expect(
            try await store.prune(before: cutoff, limit: 100, now: recent)
                == LedgerPruning(eventPayloads: 0, notifications: 1, leases: 0))
        #expect(try await store.prune(before: cutoff, limit: 100, now: recent) == LedgerPruning())
        #expect(try await store.trace(ofTransaction: "t-traced-old") == nil, "an old trace link stays")
        #expect(try await store.trace(ofTransaction: "t-traced-recent") != nil, "a recent trace link went")
        await #expect(throws: StorageError(.pruned, "")) {
            _ = try await store.replayWebhookEvent(delivered, to: [route], operator: "ops", now: recent)
        }
        let replayed = try await store.replayWebhookEvent(failing, to: [route], operator: "ops", now: recent)
        #expect(replayed?.map(\.status) == [.pending], "a failing event keeps its payload and is replayed")
        #expect(
            try await store.processedNotifications(among: ["n-old-1", "n-old-2", "n-new"]) == ["n-new"],
            "old processed notifications go")
        #expect(
            try await store.recordNotification(
                NotificationRecord(
                    uuid: "n-old-open", type: "ONE_TIME_CHARGE", subtype: nil, transactionID: nil,
                    environment: "Sandbox", signedDate: old, receivedAt: old)) != nil,
            "an unprocessed notification is kept (recording it again finds it)")
        _ = try await store.prune(before: recent + 1_000, limit: 100, now: recent)
        #expect(
            try await store.processedNotifications(among: ["n-new"]) == ["n-new"], "the newest notification stays")
        #expect(
            try await store.acquireLease("retention-live", holder: "other", until: recent + 90, now: recent + 1)
                == false, "a live lease is not pruned")
        try await drainUndispatched()
    }
}
