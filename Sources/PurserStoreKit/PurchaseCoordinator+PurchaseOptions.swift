#if PURSER_STOREKIT_SHIM || canImport(StoreKit)
    import Purser
    #if PURSER_STOREKIT_SHIM
        import StoreKitShim
    #else
        import StoreKit
    #endif

    // Selling through StoreKit's own views (`ProductView`, `StoreView`) and `PurchaseAction` (StoreKit 2): the order
    // travels as the purchase's `appAccountToken`. What StoreKit's views sell arrives on `Transaction.updates`, where
    // the coordinator settles it; what a `PurchaseAction` answers, the app hands to `complete(_:with:)`.
    extension PurchaseCoordinating {
        /// Creates and journals the server's order for `product` (`preparePurchase`) and answers the options to buy it
        /// with: `.appAccountToken` (the order) and `.quantity`. For `.inAppPurchaseOptions { product in … }` on a
        /// StoreKit view.
        public func purchaseOptions(for product: Product, quantity: Int = 1) async throws(PurchaseError)
            -> Set<Product.PurchaseOption>
        {
            try await preparePurchase(product.id, quantity: quantity).options
        }

        /// Settles what a `PurchaseAction` (or the app's own `Product.purchase`) answered for `prepared`: a purchase
        /// is submitted and finished now, as `buy`'s is; a cancel closes the order. Returns the event (also sent on
        /// `events`); nil for Ask to Buy, whose outcome arrives on `events` later.
        @discardableResult
        public func complete(_ prepared: PreparedPurchase, with result: Product.PurchaseResult) async -> PurchaseEvent?
        {
            switch result {
            case .success(let verification):
                return await settleTransaction(String(verification.unsafePayloadValue.id))
            case .userCancelled:
                return await cancelPreparedPurchase(prepared)
            case .pending:
                return nil
            @unknown default:
                return nil
            }
        }
    }

    extension PreparedPurchase {
        /// The purchase options that tie a StoreKit purchase to this order: `.appAccountToken` and `.quantity`.
        public var options: Set<Product.PurchaseOption> {
            [.appAccountToken(appAccountToken), .quantity(quantity)]
        }
    }
#endif
