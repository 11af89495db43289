import Foundation
import Purser
import PurserCore

#if canImport(StoreKit)
    import StoreKit
    /// StoreKit's product (PurserCore has a `Product` too).
    private typealias StoreKitProduct = StoreKit.Product
#else
    import StoreKitShim
    private typealias StoreKitProduct = StoreKitShim.Product
#endif

/// Purser on StoreKit 2: `Transaction.updates` is listened to from launch, `Transaction.unfinished` is scanned
/// on recovery, purchases carry the order id as `appAccountToken`, and the signed transaction is the evidence.
public final class StoreKit2Adapter: StoreAdapter, @unchecked Sendable {
    private let lock = NSLock()
    private var listener: Task<Void, Never>?
    /// StoreKit's transactions by id, kept until finished.
    private var native: [String: (transaction: Transaction, jws: String)] = [:]

    public init() {}

    public func start(_ updates: @escaping @Sendable (StoreUpdate) async -> Void) async {
        let task = Task { [weak self] in
            for await result in Transaction.updates {
                guard let self else { return }
                await updates(.purchased(self.remember(result)))
            }
        }
        lock.withLock { listener = task }
    }

    public func stop() async {
        lock.withLock { listener }?.cancel()
    }

    public func unfinishedTransactions() async -> [StoreTransaction] {
        var found: [StoreTransaction] = []
        for await result in Transaction.unfinished { found.append(remember(result)) }
        return found.sorted { ($0.purchaseDate ?? .distantPast, $0.id) < ($1.purchaseDate ?? .distantPast, $1.id) }
    }

    public func purchase(productID: String, quantity: Int, orderID: OrderID) async -> StorePurchaseResult {
        do {
            guard let product = try await StoreKitProduct.products(for: [productID]).first else {
                return .failed(StoreFailure(.productUnavailable, detail: "the store does not offer \(productID)"))
            }
            let result = try await product.purchase(options: [.appAccountToken(orderID.uuid), .quantity(quantity)])
            if case .success(let verification) = result { return .purchased(remember(verification)) }
            if case .pending = result { return .deferred }
            if case .userCancelled = result { return .cancelled }
            return .failed(StoreFailure(.unknown, detail: "unknown purchase result"))
        } catch {
            return .failed(Self.failure(error))
        }
    }

    public func evidence(for transaction: StoreTransaction) async throws(StoreFailure) -> SubmitTransactionRequest {
        guard let jws = lock.withLock({ native[transaction.id]?.jws }) else {
            throw StoreFailure(.unknown, detail: "transaction \(transaction.id) is no longer known to StoreKit")
        }
        return SubmitTransactionRequest(signedTransaction: jws)
    }

    public func finish(_ transaction: StoreTransaction) async {
        guard let known = lock.withLock({ native.removeValue(forKey: transaction.id) }) else { return }
        await known.transaction.finish()
    }

    public func products(_ ids: Set<String>) async throws(StoreFailure) -> [StoreProduct] {
        do {
            return try await StoreKitProduct.products(for: ids).map {
                StoreProduct(id: $0.id, displayName: $0.displayName, displayPrice: $0.displayPrice)
            }
        } catch {
            throw Self.failure(error)
        }
    }

    /// Keeps StoreKit's object for finishing later. Unverified transactions are submitted too: the server
    /// verifies the signature and refuses a forged one, which then stays unfinished.
    private func remember(_ result: VerificationResult<Transaction>) -> StoreTransaction {
        let transaction = result.unsafePayloadValue
        let id = String(transaction.id)
        lock.withLock { native[id] = (transaction, result.jwsRepresentation) }
        return StoreTransaction(
            id: id, productID: transaction.productID, quantity: transaction.purchasedQuantity,
            orderID: transaction.appAccountToken.map(OrderID.init),
            purchaseDate: transaction.purchaseDate)
    }

    private static func failure(_ error: any Error) -> StoreFailure {
        let detail = String(describing: error)
        if let error = error as? StoreKitProduct.PurchaseError {
            switch error {
            case .productUnavailable: return StoreFailure(.productUnavailable, detail: detail)
            case .purchaseNotAllowed: return StoreFailure(.notAllowed, detail: detail)
            default: return StoreFailure(.unknown, detail: detail)
            }
        }
        if let error = error as? StoreKitError {
            switch error {
            case .userCancelled: return StoreFailure(.cancelled, detail: detail)
            case .networkError: return StoreFailure(.network, detail: detail)
            case .notAvailableInStorefront: return StoreFailure(.productUnavailable, detail: detail)
            default: return StoreFailure(.unknown, detail: detail)
            }
        }
        return StoreFailure(.unknown, detail: detail)
    }
}
