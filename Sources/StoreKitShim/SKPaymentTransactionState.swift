/// StoreKit 1's transaction states, with Apple's raw values. Like every StoreKit 1 declaration here it is deprecated
/// as Apple deprecated it (iOS 18, macOS 15, tvOS 18, watchOS 11, visionOS 2), so a Linux build shows the warnings a
/// Mac build does.
@available(*, deprecated, message: "Use PurchaseResult from Product.purchase(confirmIn:options:)")
public enum SKPaymentTransactionState: Int, Sendable {
    case purchasing = 0
    case purchased = 1
    case failed = 2
    case restored = 3
    case deferred = 4
}
