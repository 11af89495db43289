/// Counts over the webhook outbox: events not yet fanned out to the endpoints, deliveries per status, and attempts.
public struct WebhookSummary: Hashable, Sendable, Codable {
    /// Outbox events written.
    public var events: Int
    /// Events the delivery worker has not fanned out to the endpoints yet.
    public var undispatched: Int
    public var pending: Int
    public var failed: Int
    public var dead: Int
    public var delivered: Int
    /// Attempts in all, and those after a delivery's first (retries).
    public var attempts: Int
    public var retries: Int

    public init(
        events: Int, undispatched: Int, pending: Int, failed: Int, dead: Int, delivered: Int, attempts: Int,
        retries: Int
    ) {
        self.events = events
        self.undispatched = undispatched
        self.pending = pending
        self.failed = failed
        self.dead = dead
        self.delivered = delivered
        self.attempts = attempts
        self.retries = retries
    }

    /// Nothing left to deliver or retry: every event fanned out, every delivery delivered or dead.
    public var isDrained: Bool { waiting == 0 }
    /// What is still to be delivered: events not fanned out yet, and deliveries pending or failed (to be retried).
    public var waiting: Int { undispatched + pending + failed }
}
