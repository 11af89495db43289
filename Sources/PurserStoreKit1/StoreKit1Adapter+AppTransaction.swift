// Compiled twice, like StoreKit1Adapter.swift: against Apple's StoreKit and against StoreKitShim.
#if PURSER_STOREKIT_SHIM || canImport(StoreKit)
    import Foundation
    #if PURSER_STOREKIT_SHIM
        import StoreKitShim
    #else
        import StoreKit
    #endif

    extension StoreKit1Adapter {
        /// StoreKit 2's signed app transaction, sent beside the receipt so the server learns the Apple account's
        /// `appTransactionId` from what Apple signed. Best effort: nil when StoreKit cannot get one now (offline on
        /// first use, no App Store account) or cannot verify it; the receipt is submitted either way. Kept once got.
        func signedAppTransaction() async -> String? {
            if let cached = lock.withLock({ appTransactionJWS }) { return cached }
            guard let result = try? await AppTransaction.shared, case .verified = result else { return nil }
            let jws = result.jwsRepresentation
            lock.withLock { appTransactionJWS = jws }
            return jws
        }
    }
#endif
