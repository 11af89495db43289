import Foundation
import PurserCore

#if canImport(UIKit) && !os(watchOS)
    import UIKit
#elseif canImport(AppKit) && !targetEnvironment(macCatalyst)
    import AppKit
#endif

/// What an app calls on its `PurchaseCoordinator`, as a protocol: a view model written against it (`PurserStore`
/// is) can be tested with a stand-in that answers `buy` as the test wants, with no StoreKit and no server. Every
/// value it answers with has a public initializer.
public protocol PurchaseCoordinating: Actor {
    /// A new stream of what happens to purchases, for each access (`PurchaseCoordinator.events`).
    nonisolated var events: AsyncStream<PurchaseEvent> { get }
    /// A new stream of what became of spends sent again by recovery (`PurchaseCoordinator.spendOutcomes`); a
    /// stand-in that does not override it has none.
    nonisolated var spendOutcomes: AsyncStream<SpendOutcome> { get }
    /// A new stream of the signed-in user's wallet as it changes, starting with the last one read
    /// (`PurchaseCoordinator.walletUpdates`); a stand-in that does not override it has none.
    nonisolated var walletUpdates: AsyncStream<WalletResponse> { get }
    /// At launch: listens to StoreKit and the recovery signals and settles what an earlier run left.
    func start(session: PurserSession?) async
    /// A user signed in: their unfinished purchases are settled now.
    func login(_ session: PurserSession) async
    /// The user signed out: unfinished purchases wait for the next login.
    func logout() async
    /// Buys `quantity` of `productID`: the purchase's event, or an error (`PurchaseError`: before any charge, except
    /// `terminated`).
    func buy(_ productID: String, quantity: Int) async throws(PurchaseError) -> PurchaseEvent
    /// Buys `product` with the payment sheet in `anchor` (nil: wherever the adapter chooses).
    func buy(_ product: PurchasableProduct, quantity: Int, confirmIn anchor: PurchaseAnchor?)
        async throws(PurchaseError) -> PurchaseEvent
    /// Creates and journals the server's order for a purchase the app pays through StoreKit's own views.
    func preparePurchase(_ productID: String, quantity: Int) async throws(PurchaseError) -> PreparedPurchase
    /// The user left StoreKit's sheet without paying for `prepared`: the order is closed and the failure reported.
    func cancelPreparedPurchase(_ prepared: PreparedPurchase, reason: PurchaseFailureReason) async -> PurchaseEvent?
    /// Settles StoreKit's unfinished transaction `transactionID` now, as a purchase is settled.
    func settleTransaction(_ transactionID: String) async -> PurchaseEvent?
    /// Settles what StoreKit still holds unfinished now (the coordinator does it by itself on its triggers).
    func recover(_ trigger: RecoveryTrigger) async
    /// The products the app can sell, from the server's catalog and the store's prices.
    func products() async throws(ProductCatalogError) -> [PurchasableProduct]
    /// Spends from the signed-in user's wallet, once by `id`, journaled before it is sent.
    func spend(_ amounts: [String: Int64], reason: String, id: String) async throws(SpendError) -> SpendResult
    /// The signed-in user's balances and credited non-consumables (`GET /v1/wallet`).
    func wallet() async throws(PurserAPIError) -> WalletResponse
    /// The non-consumables StoreKit says the user owns.
    func entitlements() async throws(StoreFailure) -> [StoreTransaction]
    /// Restore Purchases: every transaction the App Store hands back, settled as a purchase is.
    func restore() async throws(RestoreError) -> [PurchaseEvent]
    /// Stops everything (tests and teardown): no more submissions, finishes or events.
    func shutdown() async
}

extension PurchaseCoordinating {
    /// Buys one `productID`.
    public func buy(_ productID: String) async throws(PurchaseError) -> PurchaseEvent {
        try await buy(productID, quantity: 1)
    }

    /// Prepares a purchase of one `productID` (`preparePurchase(_:quantity:)`).
    public func preparePurchase(_ productID: String) async throws(PurchaseError) -> PreparedPurchase {
        try await preparePurchase(productID, quantity: 1)
    }

    /// Spends `amounts` once, with a new id (a UUID) that the spend journal keeps until the server answers, so a
    /// crash or a lost answer resends the same spend, never a second one.
    public func spend(_ amounts: [String: Int64], reason: String) async throws(SpendError) -> SpendResult {
        try await spend(amounts, reason: reason, id: UUID().uuidString)
    }

    /// A stand-in's default: no spend is ever resent.
    public nonisolated var spendOutcomes: AsyncStream<SpendOutcome> { AsyncStream { $0.finish() } }

    /// A stand-in's default: the wallet is only what `wallet()` answers.
    public nonisolated var walletUpdates: AsyncStream<WalletResponse> { AsyncStream { $0.finish() } }

    /// A stand-in's default: nothing to stop.
    public func shutdown() async {}

    /// A stand-in's default: no prepared purchase is open, so nothing is cancelled.
    public func cancelPreparedPurchase(_ prepared: PreparedPurchase, reason: PurchaseFailureReason) async
        -> PurchaseEvent?
    { nil }

    /// Closes `prepared` as cancelled by the user (`cancelPreparedPurchase(_:reason:)`).
    @discardableResult
    public func cancelPreparedPurchase(_ prepared: PreparedPurchase) async -> PurchaseEvent? {
        await cancelPreparedPurchase(prepared, reason: .cancelled)
    }

    /// A stand-in's default: StoreKit holds nothing, so nothing is settled.
    public func settleTransaction(_ transactionID: String) async -> PurchaseEvent? { nil }

    /// A stand-in's default: nothing to recover.
    public func recover(_ trigger: RecoveryTrigger) async {}
}

extension PurchaseCoordinating {
    /// By default a stand-in buys `product` by its id and ignores the anchor.
    public func buy(_ product: PurchasableProduct, quantity: Int, confirmIn anchor: PurchaseAnchor?)
        async throws(PurchaseError) -> PurchaseEvent
    {
        try await buy(product.id, quantity: quantity)
    }

    /// Buys `product`. On UIKit platforms StoreKit 2's sheet goes to the first foreground scene: pass the scene
    /// with `buy(_:quantity:confirmIn:)` where the app has several.
    public func buy(_ product: PurchasableProduct, quantity: Int = 1) async throws(PurchaseError) -> PurchaseEvent {
        try await buy(product, quantity: quantity, confirmIn: nil)
    }

    #if canImport(UIKit) && !os(watchOS)
        /// Buys `product` with StoreKit's payment sheet in `scene`, the one the user tapped Buy in
        /// (`Product.purchase(confirmIn:options:)`).
        public func buy(_ product: PurchasableProduct, quantity: Int = 1, confirmIn scene: UIScene)
            async throws(PurchaseError) -> PurchaseEvent
        {
            try await buy(product, quantity: quantity, confirmIn: PurchaseAnchor(scene))
        }
    #elseif canImport(AppKit) && !targetEnvironment(macCatalyst)
        /// Buys `product` with StoreKit's payment sheet on `window` (`Product.purchase(confirmIn:options:)`, macOS
        /// 15.2 and later; the app's key window before).
        public func buy(_ product: PurchasableProduct, quantity: Int = 1, confirmIn window: NSWindow)
            async throws(PurchaseError) -> PurchaseEvent
        {
            try await buy(product, quantity: quantity, confirmIn: PurchaseAnchor(window))
        }
    #endif
}

extension PurchaseCoordinator: PurchaseCoordinating {}
