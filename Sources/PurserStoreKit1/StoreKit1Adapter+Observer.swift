#if PURSER_STOREKIT_SHIM || canImport(StoreKit)
    import Foundation
    import Purser
    import PurserCore
    #if PURSER_STOREKIT_SHIM
        import StoreKitShim
    #else
        import StoreKit
    #endif

    // The payment-queue observer. The conformance is declared here, on an extension holding the observer's methods,
    // so that a misspelt optional method gets Swift's "nearly matches" diagnostic instead of compiling silently.
    extension StoreKit1Adapter: SKPaymentTransactionObserver {
        /// StoreKit 1's observer callback: hands the transactions to the adapter's queue, in order.
        public func paymentQueue(_ queue: SKPaymentQueue, updatedTransactions transactions: [SKPaymentTransaction]) {
            _ = lock.withLock { pump }?.yield(.updated(transactions))
        }

        /// StoreKit 1's callback when `restoreCompletedTransactions()` finished: ends the `restore` call in progress.
        public func paymentQueueRestoreCompletedTransactionsFinished(_ queue: SKPaymentQueue) {
            _ = lock.withLock { pump }?.yield(.restoreEnded(nil))
        }

        /// StoreKit 1's callback when the restore failed: the `restore` call in progress throws its reason.
        public func paymentQueue(_ queue: SKPaymentQueue, restoreCompletedTransactionsFailedWithError error: any Error)
        {
            _ = lock.withLock { pump }?.yield(.restoreEnded(Self.failure(error)))
        }

        /// A purchase answers the waiting `purchase` call or goes to the coordinator; a restoration goes to the
        /// `restore` call in progress or to the coordinator; a failure is finished here (nothing was charged); a
        /// deferral is reported.
        func handle(_ transaction: SKPaymentTransaction) async {
            let productID = transaction.payment.productIdentifier
            let orderID = transaction.payment.applicationUsername.flatMap(OrderID.init)
            switch transaction.transactionState {
            case .purchased:
                guard let stored = remember(transaction) else { return }
                if let waiter = takeWaiter(productID, for: stored) {
                    return waiter.resume(returning: .purchased(stored))
                }
                await lock.withLock { sink }?(.purchased(stored))
            case .restored:
                guard let stored = remember(transaction) else { return }
                // During `restore` the restoration is its caller's to settle; otherwise (one left unfinished by an
                // earlier run) the coordinator's.
                let collected = lock.withLock { () -> Bool in
                    guard restoring != nil else { return false }
                    restoring?.found.append(stored)
                    return true
                }
                if !collected { await lock.withLock { sink }?(.purchased(stored)) }
            case .failed:
                let failure = Self.failure(transaction.error)
                queue.finishTransaction(transaction)
                if let waiter = takeWaiter(productID, orderID: orderID) {
                    return waiter.resume(returning: failure.reason == .cancelled ? .cancelled : .failed(failure))
                }
                await lock.withLock { sink }?(.failed(productID: productID, orderID: orderID, failure))
            case .deferred:
                if let waiter = takeWaiter(productID, orderID: orderID) { return waiter.resume(returning: .deferred) }
                await lock.withLock { sink }?(.deferred(productID: productID, orderID: orderID))
            case .purchasing:
                break
            @unknown default:
                break
            }
        }

        /// Keeps StoreKit's object for finishing later, unless this run finished it already.
        func remember(_ transaction: SKPaymentTransaction) -> StoreTransaction? {
            guard let id = transaction.transactionIdentifier else { return nil }
            return lock.withLock { () -> StoreTransaction? in
                guard !finished.contains(id) else { return nil }
                native[id] = transaction
                if let original = transaction.original?.transactionIdentifier { originals[id] = original }
                return StoreTransaction(
                    id: id, productID: transaction.payment.productIdentifier,
                    quantity: transaction.payment.quantity,
                    orderID: transaction.payment.applicationUsername.flatMap(OrderID.init),
                    purchaseDate: transaction.transactionDate)
            }
        }

        /// The waiting `purchase` call for `productID`. A purchased transaction answers it only if it carries the
        /// call's order id, or carries none and was not already in the queue when the payment was added: a
        /// redelivered earlier purchase of the same product is never mistaken for this one. Failures and deferrals
        /// answer it unless they name another order.
        func takeWaiter(_ productID: String, for transaction: StoreTransaction? = nil, orderID: OrderID? = nil)
            -> CheckedContinuation<StorePurchaseResult, Never>?
        {
            lock.withLock { () -> CheckedContinuation<StorePurchaseResult, Never>? in
                guard let waiter = waiting[productID] else { return nil }
                if let orderID, orderID != waiter.orderID { return nil }
                if let transaction {
                    let mine =
                        transaction.orderID.map { $0 == waiter.orderID } ?? !waiter.earlier.contains(transaction.id)
                    guard mine else { return nil }
                }
                waiting[productID] = nil
                return waiter.continuation
            }
        }
    }
#endif
