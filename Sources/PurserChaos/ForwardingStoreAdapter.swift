import Purser
import PurserCore

/// A `StoreAdapter` that hands every call to `inner`, so a broken or stand-in StoreKit (a `ChaosSabotage.adapter`,
/// a test's adapter) implements only the behaviour it changes; everything else forwards.
public protocol ForwardingStoreAdapter: StoreAdapter {
    /// The adapter every call not implemented here goes to.
    var inner: any StoreAdapter { get }
}

extension ForwardingStoreAdapter {
    public func start(_ updates: @escaping @Sendable (StoreUpdate) async -> Void) async { await inner.start(updates) }

    public func stop() async { await inner.stop() }

    public func unfinishedTransactions() async -> [StoreTransaction] { await inner.unfinishedTransactions() }

    public func purchase(productID: String, quantity: Int, orderID: OrderID) async -> StorePurchaseResult {
        await inner.purchase(productID: productID, quantity: quantity, orderID: orderID)
    }

    public func evidence(for transaction: StoreTransaction) async throws(StoreFailure) -> SubmitTransactionRequest {
        try await inner.evidence(for: transaction)
    }

    public func finish(_ transaction: StoreTransaction) async { await inner.finish(transaction) }

    public func products(_ ids: Set<String>) async throws(StoreFailure) -> [StoreProduct] {
        try await inner.products(ids)
    }

    public func restore() async throws(StoreFailure) -> [StoreTransaction] { try await inner.restore() }

    public func entitlements() async throws(StoreFailure) -> [StoreTransaction] { try await inner.entitlements() }
}
