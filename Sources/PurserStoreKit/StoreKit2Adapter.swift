// Compiled twice from this one file: against Apple's StoreKit in `PurserStoreKit` (Apple platforms), and against
// StoreKitShim in `PurserStoreKitSimulated` (every platform; `PURSER_STOREKIT_SHIM`), where tests and chaos drive it.
#if PURSER_STOREKIT_SHIM || canImport(StoreKit)
    import Foundation
    import Purser
    import PurserCore
    #if PURSER_STOREKIT_SHIM
        import StoreKitShim
        /// StoreKit's product.
        typealias StoreKitProduct = StoreKitShim.Product
    #else
        import StoreKit
        /// StoreKit's product.
        typealias StoreKitProduct = StoreKit.Product
    #endif

    /// Purser on StoreKit 2: `Transaction.updates` is listened to from launch, `Transaction.unfinished` is scanned
    /// on recovery, purchases carry the order id as `appAccountToken`, and the signed transaction is the evidence.
    /// Where UIKit has scenes the payment sheet is shown in the foreground scene (`purchase(confirmIn:options:)`,
    /// the only purchase call on visionOS).
    public final class StoreKit2Adapter: StoreAdapter, @unchecked Sendable {
        // @unchecked: the mutable state below is only touched under `lock`.
        private let lock = NSLock()
        private var listener: Task<Void, Never>?
        /// StoreKit's transactions by id, kept until finished.
        private var native: [String: (transaction: Transaction, jws: String)] = [:]

        /// An adapter on StoreKit 2.
        public init() {}

        /// Listens to `Transaction.updates`; what StoreKit reports outside `purchase` goes to `updates`.
        public func start(_ updates: @escaping @Sendable (StoreUpdate) async -> Void) async {
            let task = Task { [weak self] in
                for await result in Transaction.updates {
                    guard let self else { return }
                    await updates(.purchased(self.remember(result)))
                }
            }
            lock.withLock { listener = task }
        }

        /// Stops listening.
        public func stop() async {
            lock.withLock { listener }?.cancel()
        }

        /// `Transaction.unfinished`'s verified transactions, oldest first.
        public func unfinishedTransactions() async -> [StoreTransaction] {
            var found: [StoreTransaction] = []
            for await result in Transaction.unfinished { found.append(remember(result)) }
            return found.sorted {
                ($0.purchaseDate ?? .distantPast, $0.id) < ($1.purchaseDate ?? .distantPast, $1.id)
            }
        }

        /// Buys with `Product.purchase`, the order id as `appAccountToken`, and waits for the outcome.
        public func purchase(productID: String, quantity: Int, orderID: OrderID) async -> StorePurchaseResult {
            await purchase(productID: productID, quantity: quantity, orderID: orderID, anchor: nil)
        }

        /// The purchase with the payment sheet in `anchor`, the scene or window the user bought in.
        public func purchase(productID: String, quantity: Int, orderID: OrderID, confirmIn anchor: PurchaseAnchor)
            async -> StorePurchaseResult
        {
            await purchase(productID: productID, quantity: quantity, orderID: orderID, anchor: anchor)
        }

        private func purchase(productID: String, quantity: Int, orderID: OrderID, anchor: PurchaseAnchor?)
            async -> StorePurchaseResult
        {
            do {
                guard let product = try await StoreKitProduct.products(for: [productID]).first else {
                    return .failed(StoreFailure(.productUnavailable, detail: "the store does not offer \(productID)"))
                }
                let options: Set<StoreKitProduct.PurchaseOption> = [
                    .appAccountToken(orderID.uuid), .quantity(quantity),
                ]
                guard let result = try await Self.purchase(product, options: options, anchor: anchor) else {
                    return .failed(StoreFailure(.unknown, detail: "no foreground scene to show the payment sheet in"))
                }
                switch result {
                case .success(let verification): return .purchased(remember(verification))
                case .pending: return .deferred
                case .userCancelled: return .cancelled
                @unknown default: return .failed(StoreFailure(.unknown, detail: "unknown purchase result"))
                }
            } catch {
                return .failed(Self.failure(error))
            }
        }

        /// The transaction's signed form (`jwsRepresentation`), with the order id the journal holds.
        public func evidence(for transaction: StoreTransaction) async throws(StoreFailure) -> SubmitTransactionRequest {
            guard let jws = lock.withLock({ native[transaction.id]?.jws }) else {
                throw StoreFailure(.unknown, detail: "transaction \(transaction.id) is no longer known to StoreKit")
            }
            return SubmitTransactionRequest(signedTransaction: jws)
        }

        /// Finishes the StoreKit 2 transaction; only after the server decided.
        public func finish(_ transaction: StoreTransaction) async {
            guard let known = lock.withLock({ native.removeValue(forKey: transaction.id) }) else { return }
            await known.transaction.finish()
        }

        /// The products' names and localized prices, from `Product.products(for:)`.
        public func products(_ ids: Set<String>) async throws(StoreFailure) -> [StoreProduct] {
            do {
                return try await StoreKitProduct.products(for: ids).map {
                    StoreProduct(
                        id: $0.id, displayName: $0.displayName, displayPrice: $0.displayPrice, price: $0.price,
                        currencyCode: $0.priceFormatStyle.currencyCode)
                }
            } catch {
                throw Self.failure(error)
            }
        }

        /// Keeps StoreKit's object for finishing later (`+Restore` keeps what it lists too). Unverified transactions
        /// are submitted too, whatever `VerificationResult.VerificationError` StoreKit found on the device (a revoked
        /// or invalid certificate chain, a value signed for another device, a bad encoding or signature, missing
        /// properties): the server verifies the signature itself and answers; a forged transaction is refused there
        /// and stays unfinished.
        func remember(_ result: VerificationResult<Transaction>) -> StoreTransaction {
            let transaction = result.unsafePayloadValue
            let id = String(transaction.id)
            lock.withLock { native[id] = (transaction, result.jwsRepresentation) }
            return Self.describe(transaction)
        }

        /// Purser's view of StoreKit's transaction.
        static func describe(_ transaction: Transaction) -> StoreTransaction {
            StoreTransaction(
                id: String(transaction.id), productID: transaction.productID,
                quantity: transaction.purchasedQuantity, orderID: transaction.appAccountToken.map(OrderID.init),
                purchaseDate: transaction.purchaseDate)
        }
    }
#endif
