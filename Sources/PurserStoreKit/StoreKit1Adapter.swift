import Foundation
import Purser
import PurserCore

#if canImport(StoreKit)
    import StoreKit
#else
    import StoreKitShim
#endif

/// Purser on StoreKit 1: a payment-queue observer registered at launch, `queue.transactions` scanned on
/// recovery, the order id as `applicationUsername`, and the app receipt (refreshed with `SKReceiptRefreshRequest`
/// when missing) as the evidence. Failed payments are finished here (nothing was charged); purchases only when
/// the coordinator says so.
public final class StoreKit1Adapter: NSObject, SKPaymentTransactionObserver, StoreAdapter, @unchecked Sendable {
    private let queue: SKPaymentQueue
    private let receiptURL: @Sendable () -> URL?
    private let purchasingTimeout: Duration
    private let lock = NSLock()
    private var sink: (@Sendable (StoreUpdate) async -> Void)?
    private var pump: AsyncStream<[SKPaymentTransaction]>.Continuation?
    /// `purchase` calls waiting for their outcome, by product (the coordinator buys one product at a time).
    private var waiting: [String: Waiter] = [:]
    /// StoreKit's transactions by id, kept until finished.
    private var native: [String: SKPaymentTransaction] = [:]
    /// Finished by this run; StoreKit may list them a moment longer.
    private var finished: Set<String> = []

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

    public func start(_ updates: @escaping @Sendable (StoreUpdate) async -> Void) async {
        let (stream, continuation) = AsyncStream.makeStream(of: [SKPaymentTransaction].self)
        lock.withLock {
            sink = updates
            pump = continuation
        }
        Task { [weak self] in
            for await batch in stream {
                for transaction in batch { await self?.handle(transaction) }
            }
        }
        queue.add(self)
    }

    public func stop() async {
        queue.remove(self)
        let (continuation, waiters) = lock.withLock {
            () -> (AsyncStream<[SKPaymentTransaction]>.Continuation?, [Waiter]) in
            defer {
                pump = nil
                waiting = [:]
            }
            return (pump, Array(waiting.values))
        }
        continuation?.finish()
        for waiter in waiters { waiter.continuation.resume(returning: .stalled) }
    }

    public func paymentQueue(_ queue: SKPaymentQueue, updatedTransactions transactions: [SKPaymentTransaction]) {
        _ = lock.withLock { pump }?.yield(transactions)
    }

    private func handle(_ transaction: SKPaymentTransaction) async {
        let productID = transaction.payment.productIdentifier
        let orderID = transaction.payment.applicationUsername.flatMap(OrderID.init)
        switch transaction.transactionState {
        case .purchased, .restored:
            guard let stored = remember(transaction) else { return }
            if let waiter = takeWaiter(productID, for: stored) { return waiter.resume(returning: .purchased(stored)) }
            await lock.withLock { sink }?(.purchased(stored))
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

    public func unfinishedTransactions() async -> [StoreTransaction] {
        queue.transactions
            .filter { $0.transactionState == .purchased || $0.transactionState == .restored }
            .compactMap { remember($0) }
            .sorted { ($0.purchaseDate ?? .distantPast, $0.id) < ($1.purchaseDate ?? .distantPast, $1.id) }
    }

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
                waiting[productID] = Waiter(orderID: orderID, earlier: earlier, continuation: continuation)
            }
            queue.add(payment)
        }
    }

    public func evidence(for transaction: StoreTransaction) async throws(StoreFailure) -> SubmitTransactionRequest {
        var receipt = readReceipt()
        if receipt == nil {
            await refreshReceipt()
            receipt = readReceipt()
        }
        guard let receipt else {
            throw StoreFailure(.receiptUnavailable, detail: "no app receipt, even after a refresh")
        }
        return SubmitTransactionRequest(receipt: receipt.base64EncodedString(), transactionId: transaction.id)
    }

    public func finish(_ transaction: StoreTransaction) async {
        let known = lock.withLock { () -> SKPaymentTransaction? in
            finished.insert(transaction.id)
            return native.removeValue(forKey: transaction.id)
        }
        guard let native = known ?? queue.transactions.first(where: { $0.transactionIdentifier == transaction.id })
        else { return }
        queue.finishTransaction(native)
    }

    public func products(_ ids: Set<String>) async throws(StoreFailure) -> [StoreProduct] {
        let loader = ProductsLoader(ids)
        let products: [SKProduct]
        do {
            products = try await loader.load()
        } catch {
            throw Self.failure(error)
        }
        let formatter = NumberFormatter()
        formatter.numberStyle = .currency
        return products.map { product in
            formatter.locale = product.priceLocale
            let price = formatter.string(from: product.price) ?? "\(product.price)"
            return StoreProduct(id: product.productIdentifier, displayName: product.localizedTitle, displayPrice: price)
        }
    }

    private func readReceipt() -> Data? {
        guard let url = receiptURL(), let data = try? Data(contentsOf: url), !data.isEmpty else { return nil }
        return data
    }

    private func refreshReceipt() async {
        await ReceiptRefresher().refresh()
    }

    private func remember(_ transaction: SKPaymentTransaction) -> StoreTransaction? {
        guard let id = transaction.transactionIdentifier else { return nil }
        return lock.withLock { () -> StoreTransaction? in
            guard !finished.contains(id) else { return nil }
            native[id] = transaction
            return StoreTransaction(
                id: id, productID: transaction.payment.productIdentifier,
                quantity: transaction.payment.quantity,
                orderID: transaction.payment.applicationUsername.flatMap(OrderID.init),
                purchaseDate: transaction.transactionDate)
        }
    }

    /// The waiting `purchase` call for `productID`. A purchased transaction answers it only if it carries the call's
    /// order id, or carries none and was not already in the queue when the payment was added: a redelivered
    /// earlier purchase of the same product is never mistaken for this one. Failures and deferrals answer it unless
    /// they name another order.
    private func takeWaiter(_ productID: String, for transaction: StoreTransaction? = nil, orderID: OrderID? = nil)
        -> CheckedContinuation<StorePurchaseResult, Never>?
    {
        lock.withLock { () -> CheckedContinuation<StorePurchaseResult, Never>? in
            guard let waiter = waiting[productID] else { return nil }
            if let orderID, orderID != waiter.orderID { return nil }
            if let transaction {
                let mine = transaction.orderID.map { $0 == waiter.orderID } ?? !waiter.earlier.contains(transaction.id)
                guard mine else { return nil }
            }
            waiting[productID] = nil
            return waiter.continuation
        }
    }

    private static func failure(_ error: (any Error)?) -> StoreFailure {
        let detail = error.map { String(describing: $0) } ?? ""
        guard let error = error as? SKError else { return StoreFailure(.unknown, detail: detail) }
        switch error.code {
        case .paymentCancelled: return StoreFailure(.cancelled, detail: detail)
        case .paymentNotAllowed: return StoreFailure(.notAllowed, detail: detail)
        case .storeProductNotAvailable: return StoreFailure(.productUnavailable, detail: detail)
        case .cloudServiceNetworkConnectionFailed: return StoreFailure(.network, detail: detail)
        default: return StoreFailure(.unknown, detail: detail)
        }
    }
}

/// A `purchase` call waiting for StoreKit's answer.
private struct Waiter {
    var orderID: OrderID
    /// Transactions already in the queue when the payment was added.
    var earlier: Set<String>
    var continuation: CheckedContinuation<StorePurchaseResult, Never>
}

/// Bridges `SKReceiptRefreshRequest`'s delegate to async/await.
private final class ReceiptRefresher: NSObject, SKRequestDelegate, @unchecked Sendable {
    private var continuation: CheckedContinuation<Void, Never>?
    private var request: SKReceiptRefreshRequest?

    func refresh() async {
        await withCheckedContinuation { continuation in
            self.continuation = continuation
            let request = SKReceiptRefreshRequest()
            self.request = request
            request.delegate = self
            request.start()
        }
    }

    func requestDidFinish(_ request: SKRequest) {
        continuation?.resume()
        continuation = nil
    }

    func request(_ request: SKRequest, didFailWithError error: any Error) {
        continuation?.resume()
        continuation = nil
    }
}

/// Bridges `SKProductsRequest`'s delegate to async/await.
private final class ProductsLoader: NSObject, SKProductsRequestDelegate, @unchecked Sendable {
    private let ids: Set<String>
    private var continuation: CheckedContinuation<[SKProduct], any Error>?
    private var request: SKProductsRequest?

    init(_ ids: Set<String>) { self.ids = ids }

    /// The products StoreKit knows among `ids`; throws StoreKit's error when the request fails (an empty answer
    /// would be cached as "the store sells nothing").
    func load() async throws -> [SKProduct] {
        try await withCheckedThrowingContinuation { continuation in
            self.continuation = continuation
            let request = SKProductsRequest(productIdentifiers: ids)
            self.request = request
            request.delegate = self
            request.start()
        }
    }

    func productsRequest(_ request: SKProductsRequest, didReceive response: SKProductsResponse) {
        continuation?.resume(returning: response.products)
        continuation = nil
    }

    func requestDidFinish(_ request: SKRequest) {}

    func request(_ request: SKRequest, didFailWithError error: any Error) {
        continuation?.resume(throwing: error)
        continuation = nil
    }
}
