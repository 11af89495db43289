#if PURSER_STOREKIT_SHIM || canImport(StoreKit)
    import Foundation
    #if PURSER_STOREKIT_SHIM
        import StoreKitShim
    #else
        import StoreKit
    #endif

    /// Bridges `SKReceiptRefreshRequest`'s delegate to async/await. The request is made, started and kept here only:
    /// StoreKit's requests are not `Sendable`.
    final class ReceiptRefresher: NSObject, @unchecked Sendable {
        // @unchecked: StoreKit calls the delegate once, after `refresh` stored the continuation.
        private var continuation: CheckedContinuation<Void, Never>?
        private var request: SKReceiptRefreshRequest?

        /// Asks the App Store for the app receipt; returns when the request finished or failed.
        func refresh() async {
            await withCheckedContinuation { continuation in
                self.continuation = continuation
                let request = SKReceiptRefreshRequest(receiptProperties: nil)
                self.request = request
                request.delegate = self
                request.start()
            }
        }
    }

    extension ReceiptRefresher: SKRequestDelegate {
        func requestDidFinish(_ request: SKRequest) {
            continuation?.resume()
            continuation = nil
        }

        func request(_ request: SKRequest, didFailWithError error: any Error) {
            continuation?.resume()
            continuation = nil
        }
    }
#endif
