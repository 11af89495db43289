import PurserCore

/// Something StoreKit reported outside a purchase call.
public enum StoreUpdate: Sendable, Hashable {
    case purchased(StoreTransaction)
    /// Ask to Buy: the payment waits for a parent.
    case deferred(productID: String, orderID: OrderID?)
    case failed(productID: String, orderID: OrderID?, StoreFailure)
}
