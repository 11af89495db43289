// Compiled twice from this one file: against Apple's StoreKit in `PurserStoreKit1` (Apple platforms), and against
// StoreKitShim in `PurserStoreKitSimulated` (every platform; `PURSER_STOREKIT_SHIM`), where tests and chaos drive it.
#if PURSER_STOREKIT_SHIM || canImport(StoreKit)
    import Foundation
    import Purser
    import PurserCore
    #if PURSER_STOREKIT_SHIM
        import StoreKitShim
    #else
        import StoreKit
    #endif

    /// Purser on StoreKit 1: a payment-queue observer registered at launch, the queue's transactions (and those its
    /// observer was handed) scanned on recovery, the order id as `applicationUsername`, and the app receipt
    /// (refreshed with `SKReceiptRefreshRequest` when missing) as the evidence. Failed payments are finished here
    /// (nothing was charged); purchases and restorations only when the coordinator says so. StoreKit 1 is deprecated
    /// since iOS 18 and macOS 15: building this shows Apple's deprecation warnings, on purpose.
    public final class StoreKit1Adapter: NSObject, StoreAdapter, @unchecked Sendable {
        // @unchecked: the mutable state below is only touched under `lock`.
        let queue: SKPaymentQueue
        private let receiptURL: @Sendable () -> URL?
        private let purchasingTimeout: Duration
        let lock = NSLock()
        var sink: (@Sendable (StoreUpdate) async -> Void)?
        var pump: AsyncStream<QueueEvent>.Continuation?
        /// The `restore` call in progress, collecting the `restored` transactions StoreKit hands over.
        var restoring: RestoreWaiter?
        /// `purchase` calls waiting for their outcome, by product (the coordinator buys one product at a time).
        var waiting: [String: PaymentWaiter] = [:]
        /// StoreKit's purchased and restored transactions by their own id, kept until finished.
        var native: [String: SKPaymentTransaction] = [:]
        /// The purchase each restored transaction restores, by the restored one's id; kept after it is finished, so a
        /// restoration submitted again (a restore racing recovery) still names the purchase the receipt holds.
        var originals: [String: String] = [:]
        /// Finished by this run; StoreKit may list them a moment longer.
        var finished: Set<String> = []
        /// The signed app transaction, once StoreKit handed it over (`signedAppTransaction()`).
        var appTransactionJWS: String?

        /// - Parameters:
        ///   - receiptURL: where the app receipt is; `Bundle.main.appStoreReceiptURL` in an app.
        ///   - purchasingTimeout: how long a payment may stay `purchasing` before `purchase` answers `stalled`.
        public init(
            queue: SKPaymentQueue = .default(),
            receiptURL: @escaping @Sendable () -> URL? = { Bundle.main.appStoreReceiptURL },
            purchasingTimeout: Duration = .seconds(120)
        ) {
            self.queue = queue
            self.receiptURL = receiptURL
            self.purchasingTimeout = purchasingTimeout
        }

        /// Registers the payment-queue observer; what StoreKit reports outside `purchase` goes to `updates`.
        public func start(_ updates: @escaping @Sendable (StoreUpdate) async -> Void) async {
            let (stream, continuation) = AsyncStream.makeStream(of: QueueEvent.self)
            lock.withLock {
                sink = updates
                pump = continuation
            }
            // One task handles the queue's callbacks in StoreKit's order, so a restore ends after its transactions.
            Task { [weak self] in
                for await event in stream {
                    switch event {
                    case .updated(let batch):
                        for transaction in batch { await self?.handle(transaction) }
                    case .restoreEnded(let failure):
                        self?.endRestore(failure)
                    }
                }
            }
            queue.add(self)
        }

        /// Removes the observer.
        public func stop() async {
            queue.remove(self)
            let (continuation, waiters) = lock.withLock {
                () -> (AsyncStream<QueueEvent>.Continuation?, [PaymentWaiter]) in
                defer {
                    pump = nil
                    waiting = [:]
                }
                return (pump, Array(waiting.values))
            }
            continuation?.finish()
            for waiter in waiters { waiter.continuation.resume(returning: .stalled) }
            endRestore(StoreFailure(.unknown, detail: "the adapter stopped"))
        }

        /// The purchased and restored transactions StoreKit holds: those in the queue, and those the observer was
        /// handed (the queue lists nothing until StoreKit has synchronised with the App Store after the observer
        /// was added, which can be after launch's recovery pass).
        public func unfinishedTransactions() async -> [StoreTransaction] {
            let listed = queue.transactions.filter {
                $0.transactionState == .purchased || $0.transactionState == .restored
            }
            var byID: [String: SKPaymentTransaction] = lock.withLock { native }
            for transaction in listed {
                if let id = transaction.transactionIdentifier { byID[id] = transaction }
            }
            return byID.values.compactMap { remember($0) }
                .sorted { ($0.purchaseDate ?? .distantPast, $0.id) < ($1.purchaseDate ?? .distantPast, $1.id) }
        }

        /// Adds a payment tagged with the order id and waits for StoreKit's answer. The payment stays in this
        /// function: StoreKit's `SKPayment` is not `Sendable`.
        public func purchase(productID: String, quantity: Int, orderID: OrderID) async -> StorePurchaseResult {
            let payment = SKMutablePayment()
            payment.productIdentifier = productID
            payment.quantity = quantity
            payment.applicationUsername = orderID.description
            let timeout = purchasingTimeout
            let watchdog = Task { [weak self] in
                try? await Task.sleep(for: timeout)
                guard !Task.isCancelled else { return }
                self?.takeWaiter(productID)?.resume(returning: .stalled)
            }
            defer { watchdog.cancel() }
            let earlier = Set(queue.transactions.compactMap(\.transactionIdentifier))
            return await withCheckedContinuation { continuation in
                lock.withLock {
                    waiting[productID] = PaymentWaiter(orderID: orderID, earlier: earlier, continuation: continuation)
                }
                queue.add(payment)
            }
        }

        /// Finishes `transaction` in the payment queue; only after the server decided.
        public func finish(_ transaction: StoreTransaction) async {
            let known = lock.withLock { () -> SKPaymentTransaction? in
                finished.insert(transaction.id)
                return native.removeValue(forKey: transaction.id)
            }
            guard
                let native = known ?? queue.transactions.first(where: { $0.transactionIdentifier == transaction.id })
            else { return }
            queue.finishTransaction(native)
        }

        /// The app receipt, refreshed once when missing, with the signed app transaction when StoreKit has one. A
        /// restored transaction is submitted under the purchase it restores: that is the one the receipt and the
        /// server know.
        public func evidence(for transaction: StoreTransaction) async throws(StoreFailure) -> SubmitTransactionRequest {
            var receipt = readReceipt()
            if receipt == nil {
                await ReceiptRefresher().refresh()
                receipt = readReceipt()
            }
            guard let receipt else {
                throw StoreFailure(.receiptUnavailable, detail: "no app receipt, even after a refresh")
            }
            let original = lock.withLock { originals[transaction.id] }
            return SubmitTransactionRequest(
                receipt: receipt.base64EncodedString(), transactionId: original ?? transaction.id,
                appTransaction: await signedAppTransaction())
        }

        /// The products' names and localized prices, from `SKProductsRequest`.
        public func products(_ ids: Set<String>) async throws(StoreFailure) -> [StoreProduct] {
            let products: [SKProduct]
            do {
                products = try await ProductsLoader(ids).load()
            } catch {
                throw Self.failure(error)
            }
            let formatter = NumberFormatter()
            formatter.numberStyle = .currency
            return products.map { product in
                formatter.locale = product.priceLocale
                let price = formatter.string(from: product.price) ?? "\(product.price)"
                return StoreProduct(
                    id: product.productIdentifier, displayName: product.localizedTitle, displayPrice: price,
                    price: product.price.decimalValue, currencyCode: product.priceLocale.currency?.identifier)
            }
        }

        private func readReceipt() -> Data? {
            guard let url = receiptURL(), let data = try? Data(contentsOf: url), !data.isEmpty else { return nil }
            return data
        }
    }

    /// What the payment queue told its observer, in order.
    enum QueueEvent: Sendable {
        case updated([SKPaymentTransaction])
        /// `restoreCompletedTransactions()` finished (nil) or failed.
        case restoreEnded(StoreFailure?)
    }

    /// A `purchase` call waiting for StoreKit's answer.
    struct PaymentWaiter {
        var orderID: OrderID
        /// Transactions already in the queue when the payment was added.
        var earlier: Set<String>
        var continuation: CheckedContinuation<StorePurchaseResult, Never>
    }
#endif
