import Foundation
import PurserCore

/// A purchased transaction as StoreKit reports it.
public struct StoreTransaction: Sendable, Hashable {
    /// Apple's transaction id.
    public var id: String
    public var productID: String
    public var quantity: Int
    /// The order StoreKit handed back (`applicationUsername` / `appAccountToken`); often nil in the field.
    public var orderID: OrderID?
    public var purchaseDate: Date?

    public init(id: String, productID: String, quantity: Int, orderID: OrderID?, purchaseDate: Date?) {
        self.id = id
        self.productID = productID
        self.quantity = quantity
        self.orderID = orderID
        self.purchaseDate = purchaseDate
    }
}
