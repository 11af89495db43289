import Foundation
import HTTPTypes
import PurserCore
import PurserStorage

/// Creates and reads orders: the server-side half of a purchase, made before the app pays.
public struct OrderService: Sendable {
    public let catalog: ProductCatalog
    public let store: any LedgerStore
    private let now: @Sendable () -> Date

    public init(catalog: ProductCatalog, store: any LedgerStore, now: @escaping @Sendable () -> Date = { Date() }) {
        self.catalog = catalog
        self.store = store
        self.now = now
    }

    /// StoreKit accepts 1 to 10 units of a consumable in one payment.
    static let quantities = 1...10

    public func create(_ request: CreateOrderRequest, for user: UserID) async throws -> Order {
        guard let product = catalog.product(request.productId) else {
            throw APIError(.unprocessableContent, code: "unknown_product", "product \(request.productId) is not in the catalog")
        }
        let quantity = request.quantity ?? 1
        guard Self.quantities.contains(quantity), product.type == .consumable || quantity == 1 else {
            throw APIError(.badRequest, code: "invalid_quantity", "quantity must be 1...10, and 1 for non-consumables")
        }
        let order = Order(id: .random(), userID: user, productID: product.id, quantity: quantity, createdAt: now())
        try await store.createOrder(order)
        return order
    }

    /// The order if it exists and belongs to `user`; others' orders are indistinguishable from missing ones.
    public func order(_ id: String, for user: UserID) async throws -> Order {
        guard let orderID = OrderID(id), let order = try await store.order(orderID), order.userID == user else {
            throw APIError.notFound
        }
        return order
    }
}
