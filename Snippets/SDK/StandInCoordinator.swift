// A shop written against `any PurchaseCoordinating`, tested with a stand-in that answers as the test wants: no
// StoreKit, no server, no simulator.

import Foundation
import Purser  // also PurserCore's wire types the SDK's values carry (Grants, OrderID, WalletResponse)

/// The app's view model: it knows the protocol, not the coordinator.
actor Shop {
    let purchases: any PurchaseCoordinating
    private(set) var notice = ""

    init(purchases: any PurchaseCoordinating) { self.purchases = purchases }

    func buy(_ productID: String) async {
        do throws(PurchaseError) {
            switch try await purchases.buy(productID, quantity: 1) {
            case .delivered(let delivery): notice = "+\(delivery.grants?.amounts["gold"] ?? 0) gold"
            case .pending(let pending): notice = pending.reason.message(.english)
            default: notice = "done"
            }
        } catch {
            notice = error.message(.english)
        }
    }
}

/// The stand-in: every value it answers with has a public initializer.
actor StandInCoordinator: PurchaseCoordinating {
    var answer: Result<PurchaseEvent, PurchaseError>

    init(answer: Result<PurchaseEvent, PurchaseError>) { self.answer = answer }

    nonisolated var events: AsyncStream<PurchaseEvent> { AsyncStream { $0.finish() } }
    func start(session: PurserSession?) async {}
    func login(_ session: PurserSession) async {}
    func logout() async {}
    func buy(_ productID: String, quantity: Int) async throws(PurchaseError) -> PurchaseEvent { try answer.get() }
    func preparePurchase(_ productID: String, quantity: Int) async throws(PurchaseError) -> PreparedPurchase {
        PreparedPurchase(orderID: OrderID(UUID()), productID: productID, quantity: quantity)
    }
    func products() async throws(ProductCatalogError) -> [PurchasableProduct] { [] }
    func spend(_ amounts: [String: Int64], reason: String, id: String) async throws(SpendError) -> SpendResult {
        SpendResult(id: id, spent: amounts, balances: [:])
    }
    func wallet() async throws(PurserAPIError) -> WalletResponse { WalletResponse(userId: "alice", balances: [:]) }
    func entitlements() async throws(StoreFailure) -> [StoreTransaction] { [] }
    func restore() async throws(RestoreError) -> [PurchaseEvent] { [] }
}

/// In the app's tests (Swift Testing's `#expect` in place of `assert`):
func shopShowsTheGoldDelivered() async {
    let delivered = Delivery(transactionID: "2000000000000001", productID: "gold60", grants: Grants(["gold": 60]))
    let shop = Shop(purchases: StandInCoordinator(answer: .success(.delivered(delivered))))
    await shop.buy("gold60")
    let notice = await shop.notice
    assert(notice == "+60 gold")
}
// snippet.hide

await shopShowsTheGoldDelivered()
