import Foundation
import PurserCore
import PurserStorage

/// Creates, reads and cancels orders: the server-side half of a purchase, made before the app pays. Also answers
/// the product list the app may sell, from the same catalog.
public struct OrderService: Sendable {
    public let catalog: ProductCatalog
    public let store: any LedgerStore
    /// The catalog as `GET /v1/products` answers it, with its content version (computed once).
    public let productList: ProductListResponse
    /// The currencies only non-consumables grant: the wallet shows them as entitlements, not as balances.
    let entitlementCurrencies: Set<String>
    let now: @Sendable () -> Date

    public init(catalog: ProductCatalog, store: any LedgerStore, now: @escaping @Sendable () -> Date = { Date() }) {
        self.catalog = catalog
        self.store = store
        self.productList = ProductListResponse(catalog: catalog)
        let products = catalog.products.values
        let counted = products.filter { $0.type == .consumable }.flatMap { $0.grants.amounts.keys }
        self.entitlementCurrencies = Set(products.flatMap { $0.grants.amounts.keys }).subtracting(counted)
        self.now = now
    }

    /// StoreKit accepts 1 to 10 units of a consumable in one payment.
    static let quantities = 1...ProductDefinition.maxQuantity

    /// A new waiting order of `user` for a catalog product. Errors: `unknown_product` (422), `invalid_quantity` (400),
    /// `already_owned` (409: a non-consumable the user owns).
    public func create(_ request: CreateOrderRequest, for user: UserID) async throws -> Order {
        guard let product = catalog.product(request.productId) else {
            throw ServiceError(.unknownProduct, "product \(request.productId.echoed) is not in the catalog")
        }
        let quantity = request.quantity ?? 1
        guard Self.quantities.contains(quantity), product.type == .consumable || quantity == 1 else {
            throw ServiceError(.invalidQuantity, "quantity must be 1...10, and 1 for non-consumables")
        }
        try await refuseIfOwned(product, by: user)
        let createdAt = now()
        let order = Order(
            id: .timeOrdered(at: createdAt), userID: user, productID: product.id, quantity: quantity,
            createdAt: createdAt)
        try await store.createOrder(order)
        return order
    }

    /// The order if it exists and belongs to `user`; others' orders are indistinguishable from missing ones.
    public func order(_ id: String, for user: UserID) async throws -> Order {
        guard let orderID = OrderID(id), let order = try await store.order(orderID), order.userID == user else {
            throw ServiceError(.notFound, "no such order")
        }
        return order
    }

    /// The longest cancel reason accepted: reasons are short codes such as `payment_not_allowed`.
    static let maxReasonLength = 64

    /// Cancels `user`'s waiting order after the app learnt that its payment never happened. Idempotent: an order
    /// cancelled before is answered as it is. Errors: `invalid_reason` (400: empty, blank or longer than 64
    /// characters), `not_found` (404: no such order, or another account's), `order_delivered` (409: a transaction was
    /// credited through it; the order is left unchanged).
    public func cancel(_ id: String, reason: String, for user: UserID) async throws -> Order {
        guard !reason.isBlank, reason.schemaLength <= Self.maxReasonLength else {
            throw ServiceError(
                .invalidReason,
                "reason must be 1 to \(Self.maxReasonLength) characters and not blank")
        }
        guard let orderID = OrderID(id) else { throw ServiceError(.notFound, "no such order") }
        switch try await store.cancelOrder(orderID, by: user, reason: reason, now: now()) {
        case .cancelled(let order), .alreadyCancelled(let order):
            return order
        case .delivered:
            throw ServiceError(.orderDelivered, "the order was delivered and cannot be cancelled")
        case .notFound:
            throw ServiceError(.notFound, "no such order")
        }
    }
}
