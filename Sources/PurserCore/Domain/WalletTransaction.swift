import Foundation

/// A spend or deposit on one user's wallet, applied once by the caller's idempotency id: what was asked, and what
/// the ledger recorded (the balances it left, when).
public struct WalletTransaction: Hashable, Sendable {
    /// What the caller asks for; two requests with one `id` must be equal to be the same request.
    public struct Request: Hashable, Sendable {
        /// The caller's idempotency id: unique forever, because it is a ledger row.
        public var id: String
        public var userID: UserID
        /// Per currency: negative spends, positive deposits. All apply, or none.
        public var amounts: [String: Int64]
        public var reason: String
        /// The caller's metadata as canonical JSON (sorted keys), if any.
        public var metadata: String?
        /// Who applies it: `admin` (the game's backend) or `support by <operator>` (a goodwill credit).
        public var cause: String

        public init(
            id: String, userID: UserID, amounts: [String: Int64], reason: String, metadata: String? = nil,
            cause: String
        ) {
            self.id = id
            self.userID = userID
            self.amounts = amounts
            self.reason = reason
            self.metadata = metadata
            self.cause = cause
        }

        /// The fields in which `other` differs from this request, by their wire names (`idempotency_conflict`).
        public func differences(from other: Request) -> [String] {
            var fields: [String] = []
            if userID != other.userID { fields.append("userId") }
            if amounts != other.amounts { fields.append("amounts") }
            if reason != other.reason { fields.append("reason") }
            if metadata != other.metadata { fields.append("metadata") }
            if cause != other.cause { fields.append("cause") }
            return fields
        }
    }

    public var request: Request
    /// The user's balances of the request's currencies right after it applied.
    public var balances: [String: Int64]
    public var recordedAt: Date

    public init(request: Request, balances: [String: Int64], recordedAt: Date) {
        self.request = request
        self.balances = balances
        self.recordedAt = recordedAt
    }

    /// What applying a request did.
    public enum Outcome: Hashable, Sendable {
        /// Applied now.
        case applied(WalletTransaction)
        /// Applied before with the same request: nothing changed; the first record.
        case replayed(WalletTransaction)
        /// Applied before with another request: nothing changed; the fields that differ.
        case conflict([String])
        /// A spend the balance cannot cover: nothing changed.
        case insufficient(currency: String, balance: Int64, requested: Int64)
    }
}
