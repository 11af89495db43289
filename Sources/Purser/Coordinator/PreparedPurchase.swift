import Foundation
import PurserCore

/// A purchase the app pays for itself, through StoreKit's `ProductView`, `StoreView` or `PurchaseAction`: the
/// server's order, journaled, whose id goes to StoreKit as the purchase's `appAccountToken`. The coordinator settles
/// the transaction when StoreKit reports it on `Transaction.updates`.
public struct PreparedPurchase: Sendable, Hashable, Identifiable {
    /// The server's order.
    public var orderID: OrderID
    /// The product the order is for.
    public var productID: String
    /// How many units the order is for.
    public var quantity: Int

    /// The order id, as `Identifiable` wants it.
    public var id: OrderID { orderID }
    /// The value for StoreKit's `.appAccountToken(_:)` purchase option: the order id.
    public var appAccountToken: UUID { orderID.uuid }

    /// A prepared purchase from its parts; public so an app's tests can make one.
    public init(orderID: OrderID, productID: String, quantity: Int = 1) {
        self.orderID = orderID
        self.productID = productID
        self.quantity = quantity
    }
}
