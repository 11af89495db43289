import Foundation

extension ChaosReport {
    /// Purser's webhooks in a run: the outbox after the heal phase, and what the game backend received.
    public struct Webhooks: Codable, Sendable, Hashable {
        /// Outbox events (credits, revokes, restores).
        public var events: Int
        public var delivered: Int
        public var dead: Int
        /// Not delivered when the heal phase stopped waiting (0 when the outbox drained).
        public var undelivered: Int
        /// Posts in all, and those after a delivery's first attempt.
        public var attempts: Int
        public var retries: Int
        /// What the game backend saw: posts, events applied, duplicates ignored, posts that met a fault, posts that
        /// did not verify.
        public var posts: Int
        public var applied: Int
        public var duplicates: Int
        public var faulted: Int
        public var refused: Int
        /// How long the heal phase waited for the outbox to drain.
        public var drainSeconds: Double

        /// One line for the report.
        public var line: String {
            "Webhooks: \(events) events, \(delivered) delivered, \(dead) dead, \(undelivered) undelivered; "
                + "\(attempts) attempts (\(retries) retries); the game backend received \(posts) posts, applied "
                + "\(applied), ignored \(duplicates) duplicates, answered \(faulted) with a fault, refused \(refused); "
                + "drained in \(String(format: "%.1f", drainSeconds)) s"
        }
    }
}
