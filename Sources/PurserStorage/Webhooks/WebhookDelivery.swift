import Foundation

/// One outbox event's delivery to one endpoint, as the ledger holds it: its state, attempts and last result.
public struct WebhookDelivery: Hashable, Sendable, Codable {
    /// Where a delivery stands.
    public enum Status: String, Hashable, Sendable, Codable, CaseIterable {
        /// Not attempted yet.
        case pending
        /// Attempted and failed; another attempt is scheduled (`nextAttemptAt`).
        case failed
        /// Every attempt of the schedule failed: kept, listed, replayable, never retried by itself.
        case dead
        /// The endpoint answered 2xx.
        case delivered
    }

    /// The delivery's own row id.
    public var deliveryId: Int64
    /// `webhook-id`: the event's id, the same for every endpoint and every attempt.
    public var id: String
    public var type: String
    public var userId: String
    public var endpoint: String
    public var status: Status
    public var attempts: Int
    /// When the next attempt is due (pending and failed deliveries).
    public var nextAttemptAt: Date?
    public var lastAttemptAt: Date?
    /// What the last attempt got: `HTTP 500`, `timed out`, `connection refused`, …
    public var lastResult: String?
    public var deliveredAt: Date?
    public var createdAt: Date

    public init(
        deliveryId: Int64, id: String, type: String, userId: String, endpoint: String, status: Status, attempts: Int,
        nextAttemptAt: Date?, lastAttemptAt: Date?, lastResult: String?, deliveredAt: Date?, createdAt: Date
    ) {
        self.deliveryId = deliveryId
        self.id = id
        self.type = type
        self.userId = userId
        self.endpoint = endpoint
        self.status = status
        self.attempts = attempts
        self.nextAttemptAt = nextAttemptAt
        self.lastAttemptAt = lastAttemptAt
        self.lastResult = lastResult
        self.deliveredAt = deliveredAt
        self.createdAt = createdAt
    }
}

extension WebhookDelivery {
    /// A delivery a worker claimed: what to post, and how many attempts came before.
    public struct Claim: Hashable, Sendable {
        public var deliveryId: Int64
        /// `webhook-id`.
        public var id: String
        public var type: String
        public var endpoint: String
        /// The body to post, exactly as written with the event.
        public var body: String
        /// Attempts before this one.
        public var attempts: Int

        public init(deliveryId: Int64, id: String, type: String, endpoint: String, body: String, attempts: Int) {
            self.deliveryId = deliveryId
            self.id = id
            self.type = type
            self.endpoint = endpoint
            self.body = body
            self.attempts = attempts
        }
    }

    /// What one attempt of a claimed delivery came to.
    public struct Attempt: Hashable, Sendable {
        public enum Outcome: Hashable, Sendable {
            /// A 2xx answer.
            case delivered
            /// Anything else; the next attempt is due at `retryAt`, or never (`nil`: dead-lettered).
            case failed(retryAt: Date?)
            /// Not posted: the holder is shutting down and gives the claim back, so another replica posts it at once
            /// instead of after the claim expires. No attempt is counted.
            case released
        }

        public var deliveryId: Int64
        public var outcome: Outcome
        /// A short description of the answer, e.g. `HTTP 204`, `HTTP 500`, `timed out`.
        public var result: String

        public init(deliveryId: Int64, outcome: Outcome, result: String) {
            self.deliveryId = deliveryId
            self.outcome = outcome
            self.result = result
        }
    }
}
