import Foundation
import PurserStorage

extension PurserDriver {
    /// The longest the heal phase waits for the webhook outbox to drain.
    static let webhookDrainLimit: Duration = .seconds(120)

    /// " (N webhooks still to deliver)" for the heal's notes, or nothing when the ledger could not say.
    static func stillToDeliver(_ waiting: Int?) -> String {
        waiting.map { " (\($0) webhooks still to deliver)" } ?? ""
    }

    /// Waits until every outbox event is fanned out and every delivery delivered or dead (at most
    /// `webhookDrainLimit`), and reports the outbox and the game backend.
    func drainWebhooks() async throws -> ChaosReport.Webhooks {
        let started = ContinuousClock.now
        var summary = try await server.store.webhookSummary()
        progress.note("heal: webhooks to the game backend drain\(Self.stillToDeliver(summary.waiting))")
        while !summary.isDrained, ContinuousClock.now - started < Self.webhookDrainLimit {
            try await Task.sleep(for: .milliseconds(50))
            summary = try await server.store.webhookSummary()
        }
        let received = server.gameBackend.counts(app: server.app)
        return ChaosReport.Webhooks(
            events: summary.events, delivered: summary.delivered, dead: summary.dead,
            undelivered: summary.waiting, attempts: summary.attempts,
            retries: summary.retries, posts: received.posts, applied: received.applied,
            duplicates: received.duplicates, faulted: received.faulted, refused: received.refused,
            drainSeconds: (ContinuousClock.now - started).seconds)
    }
}
