#if PURSER_STOREKIT_SHIM || canImport(StoreKit)
    import Foundation
    import Purser
    #if PURSER_STOREKIT_SHIM
        import StoreKitShim
    #else
        import StoreKit
    #endif

    // StoreKit 1's errors, sorted into the reasons Purser explains to users.
    extension StoreKit1Adapter {
        /// The failure for a failed payment or request. An offline device reports `SKError.unknown` with the URL
        /// loading error under `NSUnderlyingErrorKey` (or, for some requests, the URL error itself): both are
        /// `network`.
        static func failure(_ error: (any Error)?) -> StoreFailure {
            guard let error else { return StoreFailure(.unknown, detail: "StoreKit reported no error") }
            let detail = String(describing: error)
            if let error = error as? SKError { return StoreFailure(reason(for: error), detail: detail) }
            if (error as NSError).domain == NSURLErrorDomain { return StoreFailure(.network, detail: detail) }
            return StoreFailure(.unknown, detail: detail)
        }

        /// Each code on purpose. The offer, overlay and privacy codes cannot come from the payments Purser makes (no
        /// offers, no overlays) and are platform-limited in Apple's SDK, so they share `default` with codes added
        /// later: all `unknown`.
        static func reason(for error: SKError) -> PurchaseFailureReason {
            switch error.code {
            case .paymentCancelled: .cancelled
            case .paymentNotAllowed, .clientInvalid, .cloudServicePermissionDenied: .notAllowed
            case .storeProductNotAvailable: .productUnavailable
            case .cloudServiceNetworkConnectionFailed: .network
            case .unknown: isURLError(error.userInfo[NSUnderlyingErrorKey]) ? .network : .unknown
            case .paymentInvalid, .cloudServiceRevoked: .unknown
            default: .unknown
            }
        }

        private static func isURLError(_ value: Any?) -> Bool {
            guard let value else { return false }
            return (value as? NSError)?.domain == NSURLErrorDomain
        }
    }
#endif
