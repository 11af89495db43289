/// How a purchase call ended.
public enum StorePurchaseResult: Sendable, Hashable {
    /// Apple charged: the transaction to submit.
    case purchased(StoreTransaction)
    /// Ask to Buy: a parent has to approve.
    case deferred
    /// The user closed the payment sheet.
    case cancelled
    /// StoreKit refused or failed the payment.
    case failed(StoreFailure)
    /// StoreKit only said `purchasing` and then nothing (it does that when an earlier purchase of the product is
    /// unfinished); the outcome, if any, will come as an update.
    case stalled
}
