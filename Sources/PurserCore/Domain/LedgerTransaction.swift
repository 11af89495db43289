import Foundation

/// An Apple transaction as the ledger holds it: recorded once, keyed by `transactionID`, with its state and owner.
public struct LedgerTransaction: Hashable, Sendable {
    public enum State: String, Hashable, Sendable, Codable {
        /// Credited to `ownerID`.
        case credited
        /// Genuine, but no order binds it to an account yet.
        case unbound
        /// Definitively refused (see `rejection`).
        case rejected
        /// Revoked by Apple before it was credited.
        case revoked
    }

    public var transaction: AppleTransaction
    public var state: State
    public var ownerID: UserID?
    public var orderID: OrderID?
    public var rejection: RejectionReason?
    public var grants: Grants
    public var recordedAt: Date
    /// When Purser told Apple the transaction is finished (Finish Transaction); `nil` until it has.
    public var finishedAtApple: Date?

    public init(
        transaction: AppleTransaction, state: State, ownerID: UserID?, orderID: OrderID?,
        rejection: RejectionReason?, grants: Grants, recordedAt: Date, finishedAtApple: Date? = nil
    ) {
        self.transaction = transaction
        self.state = state
        self.ownerID = ownerID
        self.orderID = orderID
        self.rejection = rejection
        self.grants = grants
        self.recordedAt = recordedAt
        self.finishedAtApple = finishedAtApple
    }
}
