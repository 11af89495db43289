import Foundation

/// A goodwill credit an operator gave, or asked for, from the console: given at once when it is within the
/// operator's limits (`granted`), otherwise kept `pending` until a second operator approves (`approved`, and then
/// credited) or declines it. The ledger keeps them so that every replica counts an operator's day the same.
public struct ConsoleGrant: Sendable, Hashable {
    public enum State: String, Sendable, Hashable, Codable {
        case granted
        case pending
        case approved
        case declined
    }

    /// The form's key (a UUID): the wallet deposit's idempotency id is `goodwill-<id>`.
    public var id: String
    public var app: String
    public var userID: String
    public var currency: String
    public var amount: Int64
    public var reason: String
    public var requestedBy: String
    public var requestedAt: Date
    public var state: State
    public var decidedBy: String?
    public var decidedAt: Date?

    public init(
        id: String, app: String, userID: String, currency: String, amount: Int64, reason: String,
        requestedBy: String, requestedAt: Date, state: State, decidedBy: String? = nil, decidedAt: Date? = nil
    ) {
        self.id = id
        self.app = app
        self.userID = userID
        self.currency = currency
        self.amount = amount
        self.reason = reason
        self.requestedBy = requestedBy
        self.requestedAt = requestedAt
        self.state = state
        self.decidedBy = decidedBy
        self.decidedAt = decidedAt
    }
}
