#if PURSER_STOREKIT_SHIM || canImport(StoreKit)
    import Foundation
    import Purser
    #if PURSER_STOREKIT_SHIM
        import StoreKitShim
    #else
        import StoreKit
    #endif

    // Restore Purchases and the user's entitlements on StoreKit 2.
    extension StoreKit2Adapter {
        /// `AppStore.sync()` (the App Store may ask the user to sign in), then every current entitlement, kept for
        /// the coordinator to submit and finish as it does a purchase.
        public func restore() async throws(StoreFailure) -> [StoreTransaction] {
            do {
                try await AppStore.sync()
            } catch {
                throw Self.failure(error)
            }
            var found: [StoreTransaction] = []
            for await result in Transaction.currentEntitlements { found.append(remember(result)) }
            return Self.oldestFirst(found)
        }

        /// `Transaction.currentEntitlements` that StoreKit verified, as it knows them on the device now (no sign-in,
        /// no sync).
        public func entitlements() async throws(StoreFailure) -> [StoreTransaction] {
            var found: [StoreTransaction] = []
            for await result in Transaction.currentEntitlements {
                // Only what StoreKit verified on the device counts as owned here; nothing is submitted.
                guard case .verified(let transaction) = result else { continue }
                found.append(Self.describe(transaction))
            }
            return Self.oldestFirst(found)
        }

        static func oldestFirst(_ transactions: [StoreTransaction]) -> [StoreTransaction] {
            transactions.sorted {
                ($0.purchaseDate ?? .distantPast, $0.id) < ($1.purchaseDate ?? .distantPast, $1.id)
            }
        }
    }
#endif
