import Foundation
import PurserCore

/// A purchased transaction as StoreKit reports it.
public struct StoreTransaction: Sendable, Hashable {
    /// Apple's transaction id.
    public var id: String
    /// The product bought.
    public var productID: String
    /// How many units.
    public var quantity: Int
    /// The order StoreKit handed back (`applicationUsername` / `appAccountToken`); often nil in the field.
    public var orderID: OrderID?
    /// When Apple charged, when StoreKit says.
    public var purchaseDate: Date?

    /// A transaction from its parts, as an adapter reports it.
    public init(id: String, productID: String, quantity: Int, orderID: OrderID?, purchaseDate: Date?) {
        self.id = id
        self.productID = productID
        self.quantity = quantity
        self.orderID = orderID
        self.purchaseDate = purchaseDate
    }
}
