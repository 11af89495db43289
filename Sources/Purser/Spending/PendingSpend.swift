import Foundation

/// A spend the app sent (or is about to send) whose answer it has not heard: journaled before the request, closed
/// once the server answered either way.
public struct PendingSpend: Codable, Sendable, Hashable, Identifiable {
    /// The idempotency key the server keeps forever: a resend with it replays instead of spending again.
    public var id: String
    /// The user who spends.
    public var userID: String
    /// What to take of each currency, positive.
    public var amounts: [String: Int64]
    /// Why, as the wallet's history shows it ("sword").
    public var reason: String
    /// When the spend was journaled.
    public var createdAt: Date
    /// Sends that ended without an answer.
    public var attempts: Int
    /// The last send's error, for logs.
    public var lastError: String?
    /// The spend's W3C trace id (`TraceContext`), which each of its sends carries in its `traceparent`. Nil in a
    /// spend journaled by a release before trace ids; it gets one at its next send and keeps it.
    public var traceID: String?

    /// A spend not sent yet, in a new trace unless `traceID` says which.
    public init(
        id: String, userID: String, amounts: [String: Int64], reason: String, createdAt: Date,
        traceID: String = TraceContext.newTraceID()
    ) {
        self.id = id
        self.userID = userID
        self.amounts = amounts
        self.reason = reason
        self.createdAt = createdAt
        self.attempts = 0
        self.traceID = traceID
    }
}
