import Foundation
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
    /// What to send the server for `transaction`: its signed form (StoreKit 2) or the app receipt (StoreKit 1).
    func evidence(for transaction: StoreTransaction) async throws(StoreFailure) -> SubmitTransactionRequest
    /// Finishes `transaction`; call only after the server decided.
    func finish(_ transaction: StoreTransaction) async
    /// The store's view of `ids` (names and localized prices); unknown ids are left out.
    func products(_ ids: Set<String>) async throws(StoreFailure) -> [StoreProduct]
}

/// A purchased transaction as StoreKit reports it.
public struct StoreTransaction: Sendable, Hashable {
    /// Apple's transaction id.
    public var id: String
    public var productID: String
    public var quantity: Int
    /// The order StoreKit handed back (`applicationUsername` / `appAccountToken`); often nil in the field.
    public var orderID: OrderID?
    public var purchaseDate: Date?

    public init(id: String, productID: String, quantity: Int, orderID: OrderID?, purchaseDate: Date?) {
        self.id = id
        self.productID = productID
        self.quantity = quantity
        self.orderID = orderID
        self.purchaseDate = purchaseDate
    }
}

/// Something StoreKit reported outside a purchase call.
public enum StoreUpdate: Sendable, Hashable {
    case purchased(StoreTransaction)
    /// Ask to Buy: the payment waits for a parent.
    case deferred(productID: String, orderID: OrderID?)
    case failed(productID: String, orderID: OrderID?, StoreFailure)
}

/// How a purchase call ended.
public enum StorePurchaseResult: Sendable, Hashable {
    case purchased(StoreTransaction)
    case deferred
    case cancelled
    case failed(StoreFailure)
    /// StoreKit only said `purchasing` and then nothing (it does that when an earlier purchase of the product is
    /// unfinished); the outcome, if any, will come as an update.
    case stalled
}

/// A product as the store presents it.
public struct StoreProduct: Sendable, Hashable {
    public var id: String
    public var displayName: String
    public var displayPrice: String

    public init(id: String, displayName: String, displayPrice: String) {
        self.id = id
        self.displayName = displayName
        self.displayPrice = displayPrice
    }
}
