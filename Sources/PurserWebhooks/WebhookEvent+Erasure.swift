import Foundation

extension WebhookEvent {
    /// The `data` of a `user.erased` event: the user's id was replaced by `userId`, a keyed pseudonym, in every row of
    /// the ledger (Apple's guideline 5.1.1(v), GDPR). The money stayed: balances and transactions now belong to the
    /// pseudonym. The game's backend erases its own copy of that user, whom it knows from the erasure it asked for.
    public struct Erasure: Sendable, Hashable, Codable {
        /// The pseudonym the user's id became.
        public var userId: String
        /// When Purser erased the user.
        public var occurredAt: Date
        /// The next of the pseudonym's `sequence` (it keeps the user's events and their numbers).
        public var sequence: Int64

        /// An erasure's data; the server writes these.
        public init(userId: String, occurredAt: Date, sequence: Int64) {
            self.userId = userId
            self.occurredAt = occurredAt
            self.sequence = sequence
        }
    }
}
