import Foundation

/// An order on the wire. `appAccountToken` equals `orderId`: pass it to StoreKit as `applicationUsername`
/// (StoreKit 1) or `.appAccountToken(_:)` (StoreKit 2).
public struct OrderResponse: Codable, Sendable, Hashable {
    public var orderId: OrderID
    public var appAccountToken: String
    public var productId: String
    public var quantity: Int
    public var state: Order.State
    public var transactionId: String?
    public var createdAt: Date

    public init(_ order: Order) {
        orderId = order.id
        appAccountToken = order.id.description
        productId = order.productID
        quantity = order.quantity
        state = order.state
        transactionId = order.transactionID
        createdAt = order.createdAt
    }
}
