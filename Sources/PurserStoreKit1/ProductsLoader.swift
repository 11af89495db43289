#if PURSER_STOREKIT_SHIM || canImport(StoreKit)
    import Foundation
    #if PURSER_STOREKIT_SHIM
        import StoreKitShim
    #else
        import StoreKit
    #endif

    /// Bridges `SKProductsRequest`'s delegate to async/await. The request is made, started and kept here only.
    final class ProductsLoader: NSObject, @unchecked Sendable {
        // @unchecked: StoreKit calls the delegate once, after `load` stored the continuation.
        private let ids: Set<String>
        private var continuation: CheckedContinuation<[SKProduct], any Error>?
        private var request: SKProductsRequest?

        init(_ ids: Set<String>) { self.ids = ids }

        /// The products StoreKit knows among `ids`; throws StoreKit's error when the request fails (an empty answer
        /// would be cached as "the store sells nothing").
        func load() async throws -> [SKProduct] {
            try await withCheckedThrowingContinuation { continuation in
                self.continuation = continuation
                let request = SKProductsRequest(productIdentifiers: ids)
                self.request = request
                request.delegate = self
                request.start()
            }
        }
    }

    extension ProductsLoader: SKProductsRequestDelegate {
        func productsRequest(_ request: SKProductsRequest, didReceive response: SKProductsResponse) {
            continuation?.resume(returning: response.products)
            continuation = nil
        }

        func request(_ request: SKRequest, didFailWithError error: any Error) {
            continuation?.resume(throwing: error)
            continuation = nil
        }
    }
#endif
