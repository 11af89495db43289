#if PURSER_STOREKIT_SHIM || canImport(StoreKit)
    import Foundation
    import Purser
    #if PURSER_STOREKIT_SHIM
        import StoreKitShim
    #else
        import StoreKit
    #endif

    // StoreKit 2's errors, sorted into the reasons Purser explains to users, each case on purpose.
    extension StoreKit2Adapter {
        static func failure(_ error: any Error) -> StoreFailure {
            let detail = String(describing: error)
            if let error = error as? StoreKitProduct.PurchaseError {
                return StoreFailure(reason(for: error), detail: detail)
            }
            if let error = error as? StoreKitError { return StoreFailure(reason(for: error), detail: detail) }
            if error is URLError { return StoreFailure(.network, detail: detail) }
            return StoreFailure(.unknown, detail: detail)
        }

        /// Purser buys 1...10 units of a product it was offered, with no promotional offer, so only
        /// `productUnavailable` and `purchaseNotAllowed` say something about the store or the user; the rest are
        /// `unknown`.
        static func reason(for error: StoreKitProduct.PurchaseError) -> PurchaseFailureReason {
            switch error {
            case .productUnavailable: .productUnavailable
            case .purchaseNotAllowed: .notAllowed
            case .invalidQuantity: .unknown
            case .ineligibleForOffer, .invalidOfferIdentifier, .invalidOfferPrice, .invalidOfferSignature,
                .missingOfferParameters:
                .unknown
            @unknown default: .unknown
            }
        }

        /// A cancel thrown (rather than answered) is still a cancel; a product the storefront does not sell is
        /// unavailable. `notEntitled` is the app's configuration, not the user's restrictions, and `systemError`,
        /// `unknown` and `unsupported` (iOS 18.4: matched by `default`, as Apple limits its availability) say nothing
        /// Purser can explain: `unknown`.
        static func reason(for error: StoreKitError) -> PurchaseFailureReason {
            switch error {
            case .userCancelled: .cancelled
            case .networkError: .network
            case .notAvailableInStorefront: .productUnavailable
            case .notEntitled, .systemError, .unknown: .unknown
            default: .unknown
            }
        }
    }
#endif
