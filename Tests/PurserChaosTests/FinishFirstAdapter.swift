import Purser
import PurserCore

/// A broken app: it finishes each transaction as soon as it has the evidence, before the server answered (the
/// field's "finish, then verify"). Swapped into Purser, the chaos run must fail.
struct FinishFirstAdapter: StoreAdapter {
    let inner: any StoreAdapter

    func start(_ updates: @escaping @Sendable (StoreUpdate) async -> Void) async { await inner.start(updates) }
    func stop() async { await inner.stop() }
    func unfinishedTransactions() async -> [StoreTransaction] { await inner.unfinishedTransactions() }
    func purchase(productID: String, quantity: Int, orderID: OrderID) async -> StorePurchaseResult {
        await inner.purchase(productID: productID, quantity: quantity, orderID: orderID)
    }
    func evidence(for transaction: StoreTransaction) async throws(StoreFailure) -> SubmitTransactionRequest {
        let evidence = try await inner.evidence(for: transaction)
        await inner.finish(transaction)
        return evidence
    }
    func finish(_ transaction: StoreTransaction) async { await inner.finish(transaction) }
    func products(_ ids: Set<String>) async throws(StoreFailure) -> [StoreProduct] { try await inner.products(ids) }
}
