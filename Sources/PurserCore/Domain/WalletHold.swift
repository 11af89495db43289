import Foundation

/// Amounts reserved on a user's wallet (two-phase): a spend may not take them until the hold is captured, in full or
/// in part (the rest released), voided, or expires. A hold resolves at most once.
public struct WalletHold: Hashable, Sendable {
    public enum State: String, Hashable, Sendable, Codable {
        case open, captured, voided, expired
    }

    /// What the caller asks to reserve; two requests with one `id` must be equal to be the same request.
    public struct Request: Hashable, Sendable {
        /// The caller's id for the hold: unique forever.
        public var id: String
        public var userID: UserID
        /// Per currency, the positive amount to reserve.
        public var amounts: [String: Int64]
        public var reason: String
        public var expiresInSeconds: Int
        public var cause: String

        public init(
            id: String, userID: UserID, amounts: [String: Int64], reason: String, expiresInSeconds: Int, cause: String
        ) {
            self.id = id
            self.userID = userID
            self.amounts = amounts
            self.reason = reason
            self.expiresInSeconds = expiresInSeconds
            self.cause = cause
        }

        /// The fields in which `other` differs, by their wire names.
        public func differences(from other: Request) -> [String] {
            var fields: [String] = []
            if userID != other.userID { fields.append("userId") }
            if amounts != other.amounts { fields.append("amounts") }
            if reason != other.reason { fields.append("reason") }
            if expiresInSeconds != other.expiresInSeconds { fields.append("expiresInSeconds") }
            if cause != other.cause { fields.append("cause") }
            return fields
        }
    }

    public var request: Request
    public var state: State
    /// What a capture took (all or part of `request.amounts`); `nil` unless captured.
    public var captured: [String: Int64]?
    public var expiresAt: Date
    public var createdAt: Date
    public var resolvedAt: Date?

    public init(
        request: Request, state: State, captured: [String: Int64]?, expiresAt: Date, createdAt: Date,
        resolvedAt: Date?
    ) {
        self.request = request
        self.state = state
        self.captured = captured
        self.expiresAt = expiresAt
        self.createdAt = createdAt
        self.resolvedAt = resolvedAt
    }

    /// What can be spent: each balance less what open holds reserve, never below 0 (a debt has nothing available).
    public static func available(balances: [String: Int64], held: [String: Int64]) throws(AmountError)
        -> [String: Int64]
    {
        var available: [String: Int64] = [:]
        for currency in Set(balances.keys).union(held.keys) {
            available[currency] = max(
                try Amounts.subtract(balances[currency] ?? 0, held[currency] ?? 0, currency: currency), 0)
        }
        return available
    }

    /// The id of the wallet transaction a capture writes: `hold:` and the hold's id (callers' ids may not start so).
    public static func captureID(_ holdID: String) -> String { "hold:" + holdID }

    /// What placing a hold did.
    public enum Outcome: Hashable, Sendable {
        case placed(WalletHold)
        case replayed(WalletHold)
        case conflict([String])
        /// The available balance (balance less open holds) cannot cover it: nothing changed.
        case insufficient(currency: String, available: Int64, requested: Int64)
    }

    /// What resolving (capturing or voiding) a hold did.
    public enum Resolution: Hashable, Sendable {
        /// Resolved now: the hold afterwards, and for a capture the wallet transaction it wrote.
        case resolved(WalletHold, WalletTransaction?)
        /// The same resolution was asked before: the hold as it was resolved then, and for a capture the wallet
        /// transaction it wrote (so the answer is the first answer again, balances included).
        case replayed(WalletHold, WalletTransaction?)
        /// Resolved otherwise before (captured with other amounts, voided, expired): nothing changed.
        case alreadyResolved(WalletHold)
        /// A capture of more than the hold reserves, or of a currency it does not: nothing changed.
        case exceeds(WalletHold)
        case notFound
    }
}
