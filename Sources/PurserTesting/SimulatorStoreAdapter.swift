import Foundation
import Purser
import PurserCore

#if canImport(FoundationNetworking)
    import FoundationNetworking  // URLRequest
#endif

/// A `StoreAdapter` that pays the App Store simulator of a running `purser serve` (`appStore: simulator`) over HTTP,
/// as StoreKit 2 would: each purchase is a transaction the simulator signs with the order's `appAccountToken`, and
/// the server verifies it as it verifies Apple's. For an app's own tests of its purchase flow on Linux or in CI,
/// with no StoreKit and no server packages.
///
/// The adapter plays the device's StoreKit, which outlives the app: give the same adapter to a new
/// `PurchaseCoordinator` to model a relaunch, and what was paid but not finished is handed over again.
public actor SimulatorStoreAdapter: StoreAdapter {
    private let simulator: URL
    private let bundleID: String?
    /// The SDK's own transport: an ephemeral `URLSession` with a per-request time-out.
    private let transport = URLSessionTransport(timeout: 15)
    private var updates: (@Sendable (StoreUpdate) async -> Void)?
    /// Paid and not finished yet, by transaction id, with the signed form.
    private var unfinished: [String: (transaction: StoreTransaction, jws: String)] = [:]
    private var scripted: [SimulatorPurchaseOutcome] = []
    private var askToBuy: [(productID: String, quantity: Int, orderID: OrderID)] = []
    /// The non-consumables this device bought, by transaction id: what a restore hands back.
    private var owned: [String] = []

    /// The ids of the transactions the app finished, in order.
    public private(set) var finishedTransactionIDs: [String] = []

    /// - Parameters:
    ///   - server: the base URL of `purser serve` with its simulator (`http://127.0.0.1:8080`), or of a separate
    ///     `purser appstore-sim`; the simulator answers under `/simulator/v1`.
    ///   - bundleID: the app the simulator signs for; `nil`: the simulator's default (the server's `bundleId`).
    public init(server: URL, bundleID: String? = nil) {
        self.simulator = server.appendingPathComponent("simulator/v1")
        self.bundleID = bundleID
    }

    /// What the customer does at the next payment sheets, in order; once they are used up, the customer pays.
    public func script(_ outcomes: SimulatorPurchaseOutcome...) {
        scripted += outcomes
    }

    /// A parent approves every purchase waiting for Ask to Buy: each is paid and delivered as an update.
    public func approveAskToBuy() async throws {
        let waiting = askToBuy
        askToBuy = []
        for purchase in waiting {
            let transaction = try await pay(purchase.productID, quantity: purchase.quantity, orderID: purchase.orderID)
            await updates?(.purchased(transaction))
        }
    }

    // MARK: StoreAdapter

    public func start(_ updates: @escaping @Sendable (StoreUpdate) async -> Void) async {
        self.updates = updates
    }

    public func stop() async {
        updates = nil
    }

    public func unfinishedTransactions() async -> [StoreTransaction] {
        unfinished.values.map(\.transaction).sorted {
            ($0.purchaseDate ?? .distantPast, $0.id) < ($1.purchaseDate ?? .distantPast, $1.id)
        }
    }

    public func purchase(productID: String, quantity: Int, orderID: OrderID) async -> StorePurchaseResult {
        let next = scripted.isEmpty ? .pay : scripted.removeFirst()
        switch next {
        case .cancel: return .cancelled
        case .fail(let reason): return .failed(StoreFailure(reason, detail: "scripted by the test"))
        case .askToBuy:
            askToBuy.append((productID, quantity, orderID))
            return .deferred
        case .pay:
            do {
                return .purchased(try await pay(productID, quantity: quantity, orderID: orderID))
            } catch let failure as StoreFailure {
                return .failed(failure)
            } catch {
                return .failed(StoreFailure(.network, detail: "\(error)"))
            }
        }
    }

    public func evidence(for transaction: StoreTransaction) async throws(StoreFailure) -> SubmitTransactionRequest {
        guard let jws = unfinished[transaction.id]?.jws else {
            throw StoreFailure(.unknown, detail: "transaction \(transaction.id) is no longer unfinished")
        }
        return SubmitTransactionRequest(signedTransaction: jws)
    }

    public func finish(_ transaction: StoreTransaction) async {
        guard unfinished.removeValue(forKey: transaction.id) != nil else { return }
        finishedTransactionIDs.append(transaction.id)
        // The simulator's receipt forgets a finished consumable, as Apple's does.
        _ = try? await send("POST", "transactions/\(transaction.id)/finish", body: nil)
    }

    /// StoreKit 2's `AppStore.sync()` then `Transaction.currentEntitlements`: the non-consumables this device bought
    /// and Apple has not refunded, each signed again by the simulator and unfinished until the app finishes it.
    public func restore() async throws(StoreFailure) -> [StoreTransaction] {
        try await entitlements()
    }

    public func entitlements() async throws(StoreFailure) -> [StoreTransaction] {
        var current: [StoreTransaction] = []
        for id in owned {
            let answer: Purchase
            do {
                answer = try JSONDecoder().decode(
                    Purchase.self, from: try await send("GET", "transactions/\(id)", body: nil))
            } catch let failure as StoreFailure {
                throw failure
            } catch {
                throw StoreFailure(.unknown, detail: "the simulator's transaction \(id): \(error)")
            }
            guard answer.transaction.revocationDate == nil else { continue }
            let transaction = answer.storeTransaction
            unfinished[transaction.id] = (transaction, answer.signedTransaction)
            current.append(transaction)
        }
        return current
    }

    public func products(_ ids: Set<String>) async throws(StoreFailure) -> [StoreProduct] {
        let listed: CatalogList
        do {
            listed = try JSONDecoder().decode(CatalogList.self, from: try await send("GET", "products", body: nil))
        } catch let failure as StoreFailure {
            throw failure
        } catch {
            throw StoreFailure(.unknown, detail: "the simulator's catalog: \(error)")
        }
        // Without a `.storekit` file the simulator sells any id: each is presented under its own id, with no price.
        guard !listed.products.isEmpty else {
            return ids.sorted().map { StoreProduct(id: $0, displayName: $0, displayPrice: "") }
        }
        return listed.products.filter { ids.contains($0.productId) }.map { product in
            let price = product.price.map { Decimal($0) / 1000 }
            let currency = product.currency ?? "USD"
            return StoreProduct(
                id: product.productId, displayName: product.displayName,
                displayPrice: price?.formatted(.currency(code: currency).locale(Locale(identifier: "en_US"))) ?? "",
                price: price, currencyCode: price == nil ? nil : currency)
        }
    }

    // MARK: The simulator's HTTP API

    /// Charges for `productID` at the simulator and keeps the signed transaction until it is finished.
    private func pay(_ productID: String, quantity: Int, orderID: OrderID) async throws -> StoreTransaction {
        let body = PurchaseRequest(
            productId: productID, quantity: quantity, appAccountToken: orderID.description, bundleId: bundleID)
        let data = try await send("POST", "purchases", body: try JSONEncoder().encode(body))
        let paid = try JSONDecoder().decode(Purchase.self, from: data)
        let transaction = paid.storeTransaction
        unfinished[transaction.id] = (transaction, paid.signedTransaction)
        if paid.transaction.type == "Non-Consumable" { owned.append(transaction.id) }
        return transaction
    }

    private func send(_ method: String, _ path: String, body: Data?) async throws -> Data {
        var request = URLRequest(url: simulator.appendingPathComponent(path))
        request.httpMethod = method
        if let body {
            request.httpBody = body
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        let (data, status) = try await transport.send(request)
        guard (200..<300).contains(status) else {
            let reason: PurchaseFailureReason = status == 404 ? .productUnavailable : .unknown
            throw StoreFailure(
                reason, detail: "the simulator answered \(status): \(String(decoding: data, as: UTF8.self))")
        }
        return data
    }

    /// `POST /simulator/v1/purchases`; the absent fields are left out.
    private struct PurchaseRequest: Encodable {
        var productId: String
        var quantity: Int
        var appAccountToken: String
        var bundleId: String?
    }

    /// The simulator's answer to a purchase: the fields StoreKit's `Transaction` would carry.
    private struct Purchase: Decodable {
        struct Payload: Decodable {
            var productId: String
            var quantity: Int?
            var appAccountToken: String?
            var purchaseDate: Int64?
            var type: String?
            var revocationDate: Int64?
        }
        var transactionId: String
        var signedTransaction: String
        var transaction: Payload

        /// The transaction as StoreKit reports it.
        var storeTransaction: StoreTransaction {
            StoreTransaction(
                id: transactionId, productID: transaction.productId, quantity: transaction.quantity ?? 1,
                orderID: transaction.appAccountToken.flatMap(OrderID.init),
                purchaseDate: transaction.purchaseDate.map { Date(timeIntervalSince1970: Double($0) / 1000) })
        }
    }

    private struct CatalogList: Decodable {
        struct Entry: Decodable {
            var productId: String
            var displayName: String
            var price: Int64?
            var currency: String?
        }
        var products: [Entry]
    }
}
