import Foundation

/// A purchase intent created by the server before the app pays: it binds the coming Apple transaction
/// (through `appAccountToken` / `applicationUsername`) to the account that owns it.
public struct Order: Hashable, Sendable, Codable {
    public enum State: String, Hashable, Sendable, Codable {
        /// Waiting for its Apple transaction.
        case created
        /// Its transaction was credited to the owner.
        case delivered
        /// The app reported that the payment never happened (cancelled or failed in StoreKit). A transaction whose
        /// signed `appAccountToken` names the order is still credited to its owner: Apple's charge wins.
        case cancelled
    }

    public var id: OrderID
    public var userID: UserID
    public var productID: String
    public var quantity: Int
    public var state: State
    public var transactionID: String?
    public var createdAt: Date
    public var updatedAt: Date

    public init(
        id: OrderID, userID: UserID, productID: String, quantity: Int, state: State = .created,
        transactionID: String? = nil, createdAt: Date, updatedAt: Date? = nil
    ) {
        self.id = id
        self.userID = userID
        self.productID = productID
        self.quantity = quantity
        self.state = state
        self.transactionID = transactionID
        self.createdAt = createdAt
        self.updatedAt = updatedAt ?? createdAt
    }
}
