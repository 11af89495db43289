import Foundation

/// A spend the app sent (or is about to send) whose answer it has not heard: journaled before the request, closed
/// once the server answered either way.
public struct PendingSpend: Codable, Sendable, Hashable, Identifiable {
    /// The idempotency key the server keeps forever: a resend with it replays instead of spending again.
    public var id: String
    public var userID: String
    /// What to take of each currency, positive.
    public var amounts: [String: Int64]
    public var reason: String
    public var createdAt: Date
    /// Sends that ended without an answer.
    public var attempts: Int
    public var lastError: String?

    public init(id: String, userID: String, amounts: [String: Int64], reason: String, createdAt: Date) {
        self.id = id
        self.userID = userID
        self.amounts = amounts
        self.reason = reason
        self.createdAt = createdAt
        self.attempts = 0
    }
}
