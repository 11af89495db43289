import PurserCore

/// The seam between Purser and StoreKit: one implementation per StoreKit generation (`PurserStoreKit`). Adapters
/// translate; every decision (what to submit, when to finish) stays in `PurchaseCoordinator`.
public protocol StoreAdapter: Sendable {
    /// Starts listening, at launch: the StoreKit 1 queue observer or the StoreKit 2 `Transaction.updates` task.
    /// Everything StoreKit reports outside a `purchase` call (redelivered and Ask to Buy purchases, failures)
    /// goes to `updates`.
    func start(_ updates: @escaping @Sendable (StoreUpdate) async -> Void) async
    /// Stops listening.
    func stop() async
    /// Purchased transactions StoreKit still holds unfinished, oldest first.
    func unfinishedTransactions() async -> [StoreTransaction]
    /// Asks StoreKit to charge for `productID`, tagged with `orderID` (as `applicationUsername` or
    /// `appAccountToken`), and waits for the outcome.
    func purchase(productID: String, quantity: Int, orderID: OrderID) async -> StorePurchaseResult
    /// The same, with the payment sheet shown in `anchor` (the scene or window the user bought in). By default the
    /// anchor is ignored: StoreKit 1 has no such call.
    func purchase(productID: String, quantity: Int, orderID: OrderID, confirmIn anchor: PurchaseAnchor) async
        -> StorePurchaseResult
    /// What to send the server for `transaction`: its signed form (StoreKit 2) or the app receipt (StoreKit 1).
    func evidence(for transaction: StoreTransaction) async throws(StoreFailure) -> SubmitTransactionRequest
    /// Finishes `transaction`; call only after the server decided.
    func finish(_ transaction: StoreTransaction) async
    /// The store's view of `ids` (names and localized prices); unknown ids are left out.
    func products(_ ids: Set<String>) async throws(StoreFailure) -> [StoreProduct]
    /// Asks the App Store for the user's purchases again (StoreKit 2: `AppStore.sync()`, then
    /// `Transaction.currentEntitlements`; StoreKit 1: `restoreCompletedTransactions()`, which answers with new
    /// `restored` transactions) and returns the transactions to settle, oldest first. The user may be asked to
    /// sign in to the App Store: call it only from a Restore button.
    func restore() async throws(StoreFailure) -> [StoreTransaction]
    /// The non-consumables (and active subscriptions) the user owns on this Apple account now, oldest first:
    /// StoreKit 2's `Transaction.currentEntitlements`. StoreKit 1 cannot list them without a restore.
    func entitlements() async throws(StoreFailure) -> [StoreTransaction]
}

extension StoreAdapter {
    /// Ignores `anchor`: the adapter has no scene-anchored purchase.
    public func purchase(productID: String, quantity: Int, orderID: OrderID, confirmIn anchor: PurchaseAnchor) async
        -> StorePurchaseResult
    {
        await purchase(productID: productID, quantity: quantity, orderID: orderID)
    }
}
