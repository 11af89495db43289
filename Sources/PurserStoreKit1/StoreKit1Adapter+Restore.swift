#if PURSER_STOREKIT_SHIM || canImport(StoreKit)
    import Foundation
    import Purser
    #if PURSER_STOREKIT_SHIM
        import StoreKitShim
    #else
        import StoreKit
    #endif

    // Restore Purchases on StoreKit 1: `restoreCompletedTransactions()`, whose `restored` transactions the observer
    // collects until StoreKit says the restore finished.
    extension StoreKit1Adapter {
        /// Asks StoreKit to restore (the App Store may ask the user to sign in) and returns every `restored`
        /// transaction it handed over, for the coordinator to submit (as the purchase each restores) and finish.
        public func restore() async throws(StoreFailure) -> [StoreTransaction] {
            let result = await withCheckedContinuation { continuation in
                let refusal = lock.withLock { () -> StoreFailure? in
                    guard pump != nil else {
                        return StoreFailure(.unknown, detail: "the adapter is not started")
                    }
                    guard restoring == nil else {
                        return StoreFailure(.unknown, detail: "a restore is already in progress")
                    }
                    restoring = RestoreWaiter(continuation: continuation)
                    return nil
                }
                if let refusal { return continuation.resume(returning: .failure(refusal)) }
                queue.restoreCompletedTransactions()
            }
            return try result.get()
        }

        /// StoreKit 1 lists what the user owns only by restoring it, which may ask them to sign in: use `restore()`
        /// from a Restore button, or the server's view (`PurchaseCoordinator.wallet().entitlements`).
        public func entitlements() async throws(StoreFailure) -> [StoreTransaction] {
            throw StoreFailure(
                .unknown, detail: "StoreKit 1 lists no entitlements without a restore; use restore() or the wallet")
        }

        /// Answers the `restore` call in progress: what it collected, or `failure`.
        func endRestore(_ failure: StoreFailure?) {
            guard
                let waiter = lock.withLock({ () -> RestoreWaiter? in
                    defer { restoring = nil }
                    return restoring
                })
            else { return }
            if let failure {
                waiter.continuation.resume(returning: .failure(failure))
            } else {
                waiter.continuation.resume(returning: .success(waiter.found))
            }
        }
    }

    /// A `restore` call waiting for StoreKit to finish restoring.
    struct RestoreWaiter {
        var found: [StoreTransaction] = []
        var continuation: CheckedContinuation<Result<[StoreTransaction], StoreFailure>, Never>
    }
#endif
