import Foundation

/// What a StoreKit 1 request tells its delegate. Both methods are Objective-C optional requirements in Apple's
/// protocol: requirements with empty defaults here (see `SKPaymentTransactionObserver`).
@available(*, deprecated, message: "Use Product.products(for:) and AppTransaction")
public protocol SKRequestDelegate: NSObjectProtocol {
    /// Optional: the request finished.
    func requestDidFinish(_ request: SKRequest)
    /// Optional: the request failed.
    func request(_ request: SKRequest, didFailWithError error: any Error)
}

@available(*, deprecated, message: "Use Product.products(for:) and AppTransaction")
extension SKRequestDelegate {
    public func requestDidFinish(_ request: SKRequest) {}
    public func request(_ request: SKRequest, didFailWithError error: any Error) {}
}
