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
