import Foundation
import Purser
import PurserCore

/// StoreKit as the coordinator sees it, in memory: every payment charges, and a transaction stays unfinished (and is
/// handed over again at the next launch, as StoreKit does) until the coordinator finishes it.
actor FakeStore: StoreAdapter {
    private var unfinished: [StoreTransaction] = []
    private var nextTransaction = 2_000_000_000_000_001

    /// A transaction StoreKit holds unfinished from before (a purchase the SDK first sees at recovery).
    func hold(_ transaction: StoreTransaction) { unfinished.append(transaction) }

    func start(_ updates: @escaping @Sendable (StoreUpdate) async -> Void) async {}
    func stop() async {}
    func unfinishedTransactions() async -> [StoreTransaction] { unfinished }

    func purchase(productID: String, quantity: Int, orderID: OrderID) async -> StorePurchaseResult {
        let transaction = StoreTransaction(
            id: String(nextTransaction), productID: productID, quantity: quantity, orderID: orderID,
            purchaseDate: Date())
        nextTransaction += 1
        unfinished.append(transaction)
        return .purchased(transaction)
    }

    func evidence(for transaction: StoreTransaction) async throws(StoreFailure) -> SubmitTransactionRequest {
        SubmitTransactionRequest(signedTransaction: "signed-\(transaction.id)", transactionId: transaction.id)
    }

    func finish(_ transaction: StoreTransaction) async { unfinished.removeAll { $0.id == transaction.id } }

    func products(_ ids: Set<String>) async throws(StoreFailure) -> [StoreProduct] {
        ids.sorted().map { StoreProduct(id: $0, displayName: $0, displayPrice: "$0.99") }
    }

    func restore() async throws(StoreFailure) -> [StoreTransaction] { [] }
    func entitlements() async throws(StoreFailure) -> [StoreTransaction] { [] }
}
