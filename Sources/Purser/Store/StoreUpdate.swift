import PurserCore

/// Something StoreKit reported outside a purchase call.
public enum StoreUpdate: Sendable, Hashable {
    /// A purchase StoreKit reported outside `purchase` (redelivered, or approved after Ask to Buy).
    case purchased(StoreTransaction)
    /// Ask to Buy: the payment waits for a parent.
    case deferred(productID: String, orderID: OrderID?)
    /// A payment StoreKit reported as failed outside `purchase`.
    case failed(productID: String, orderID: OrderID?, StoreFailure)
}
