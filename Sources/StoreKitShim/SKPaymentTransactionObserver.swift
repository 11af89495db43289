import Foundation

/// What a payment queue tells its observers. Apple's protocol refines `NSObjectProtocol` and has one required method;
/// the rest are Objective-C optional requirements. Swift has no optional requirements without Objective-C, so here
/// they are requirements with empty defaults: an observer need not implement them, and one that declares its
/// conformance in an extension (as `StoreKit1Adapter` does) gets Swift's "nearly matches" warning for a misspelt
/// one, an error under `PURSER_WARNINGS_AS_ERRORS=1`, instead of a silently unused new method.
@available(*, deprecated, message: "Use Transaction.updates and Product.purchase(confirmIn:options:)")
public protocol SKPaymentTransactionObserver: NSObjectProtocol {
    /// Required: transactions changed state (or are redelivered to a new observer).
    func paymentQueue(_ queue: SKPaymentQueue, updatedTransactions transactions: [SKPaymentTransaction])
    /// Optional: finished transactions left the queue.
    func paymentQueue(_ queue: SKPaymentQueue, removedTransactions transactions: [SKPaymentTransaction])
    /// Optional: `restoreCompletedTransactions()` failed.
    func paymentQueue(_ queue: SKPaymentQueue, restoreCompletedTransactionsFailedWithError error: any Error)
    /// Optional: every restorable transaction was delivered as `restored`.
    func paymentQueueRestoreCompletedTransactionsFinished(_ queue: SKPaymentQueue)
    /// Optional: a purchase started in the App Store; `true` lets it proceed.
    func paymentQueue(_ queue: SKPaymentQueue, shouldAddStorePayment payment: SKPayment, for product: SKProduct)
        -> Bool
    /// Optional: the storefront changed.
    func paymentQueueDidChangeStorefront(_ queue: SKPaymentQueue)
    /// Optional: the user lost access to these products (Family Sharing).
    func paymentQueue(_ queue: SKPaymentQueue, didRevokeEntitlementsForProductIdentifiers productIdentifiers: [String])
}

// The optional requirements: what StoreKit does when an observer does not implement them.
@available(*, deprecated, message: "Use Transaction.updates and Product.purchase(confirmIn:options:)")
extension SKPaymentTransactionObserver {
    public func paymentQueue(_ queue: SKPaymentQueue, removedTransactions transactions: [SKPaymentTransaction]) {}

    public func paymentQueue(_ queue: SKPaymentQueue, restoreCompletedTransactionsFailedWithError error: any Error) {}

    public func paymentQueueRestoreCompletedTransactionsFinished(_ queue: SKPaymentQueue) {}

    public func paymentQueue(_ queue: SKPaymentQueue, shouldAddStorePayment payment: SKPayment, for product: SKProduct)
        -> Bool
    { true }

    public func paymentQueueDidChangeStorefront(_ queue: SKPaymentQueue) {}

    public func paymentQueue(
        _ queue: SKPaymentQueue, didRevokeEntitlementsForProductIdentifiers productIdentifiers: [String]
    ) {}
}
