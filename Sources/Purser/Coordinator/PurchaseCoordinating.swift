import Foundation

/// What an app calls on its `PurchaseCoordinator`, as a protocol: a view model written against it can be tested with
/// a stand-in that answers `buy` as the test wants, with no StoreKit and no server. Every value it answers with has a
/// public initializer.
public protocol PurchaseCoordinating: Actor {
    /// A new stream of what happens to purchases, for each access (`PurchaseCoordinator.events`).
    nonisolated var events: AsyncStream<PurchaseEvent> { get }
    func start(session: PurserSession?) async
    func login(_ session: PurserSession) async
    func logout() async
    func buy(_ productID: String, quantity: Int) async throws(PurchaseError) -> PurchaseEvent
    func products() async throws(ProductCatalogError) -> [PurchasableProduct]
    func spend(_ amounts: [String: Int64], reason: String, id: String) async throws(SpendError) -> SpendResult
}

extension PurchaseCoordinator: PurchaseCoordinating {}
