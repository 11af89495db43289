import Foundation

/// What an app calls on its `PurchaseCoordinator`, as a protocol: a view model written against it can be tested with
/// a stand-in that answers `buy` as the test wants, with no StoreKit and no server. Every value it answers with has a
/// public initializer.
public protocol PurchaseCoordinating: Actor {
    /// A new stream of what happens to purchases, for each access (`PurchaseCoordinator.events`).
    nonisolated var events: AsyncStream<PurchaseEvent> { get }
    /// At launch: listens to StoreKit and the recovery signals and settles what an earlier run left.
    func start(session: PurserSession?) async
    /// A user signed in: their unfinished purchases are settled now.
    func login(_ session: PurserSession) async
    /// The user signed out: unfinished purchases wait for the next login.
    func logout() async
    /// Buys `quantity` of `productID`: the purchase's event, or an error thrown before any charge.
    func buy(_ productID: String, quantity: Int) async throws(PurchaseError) -> PurchaseEvent
    /// The products the app can sell, from the server's catalog and the store's prices.
    func products() async throws(ProductCatalogError) -> [PurchasableProduct]
    /// Spends from the signed-in user's wallet, once by `id`, journaled before it is sent.
    func spend(_ amounts: [String: Int64], reason: String, id: String) async throws(SpendError) -> SpendResult
}

extension PurchaseCoordinator: PurchaseCoordinating {}
