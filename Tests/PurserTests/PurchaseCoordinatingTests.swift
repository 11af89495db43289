import Foundation
import Purser
import PurserCore
import Testing

/// An app's own code tested with a stand-in for the coordinator, as an app's test target would write it: only the
/// public API (`PurchaseCoordinating`, the public initializers of what it answers).
@Suite struct PurchaseCoordinatingTests {
    /// The stand-in: answers `buy` with what the test gave it, and tells its listeners.
    actor FakeCoordinator: PurchaseCoordinating {
        let answer: PurchaseEvent
        let broadcast: (AsyncStream<PurchaseEvent>, AsyncStream<PurchaseEvent>.Continuation)
        nonisolated var events: AsyncStream<PurchaseEvent> { broadcast.0 }

        init(answer: PurchaseEvent) {
            self.answer = answer
            broadcast = AsyncStream.makeStream(of: PurchaseEvent.self)
        }

        func start(session: PurserSession?) async {}
        func login(_ session: PurserSession) async {}
        func logout() async {}
        func buy(_ productID: String, quantity: Int) async throws(PurchaseError) -> PurchaseEvent {
            broadcast.1.yield(answer)
            return answer
        }
        func preparePurchase(_ productID: String, quantity: Int) async throws(PurchaseError) -> PreparedPurchase {
            PreparedPurchase(orderID: OrderID(UUID()), productID: productID, quantity: quantity)
        }
        func products() async throws(ProductCatalogError) -> [PurchasableProduct] {
            [
                PurchasableProduct(
                    id: "gold60", kind: .consumable, grants: Grants(["gold": 60]), displayName: "60 Gold",
                    displayPrice: "$0.99")
            ]
        }
        func spend(_ amounts: [String: Int64], reason: String, id: String) async throws(SpendError) -> SpendResult {
            SpendResult(id: id, spent: amounts.mapValues { -$0 }, balances: ["gold": 40])
        }
        func wallet() async throws(PurserAPIError) -> WalletResponse {
            WalletResponse(userId: "alice", balances: ["gold": 40])
        }
        func entitlements() async throws(StoreFailure) -> [StoreTransaction] { [] }
        func restore() async throws(RestoreError) -> [PurchaseEvent] { [] }
    }

    /// An app's shop model, written against the protocol.
    struct Shop {
        let purchases: any PurchaseCoordinating

        /// The line the shop shows after a tap on Buy.
        func tapBuy(_ product: PurchasableProduct) async -> String {
            do {
                switch try await purchases.buy(product.id, quantity: 1) {
                case .delivered(let delivery): return "Got \(delivery.grants?.amounts["gold"] ?? 0) gold"
                case .pending(let pending): return pending.reason.message(.english)
                default: return "?"
                }
            } catch {
                return error.message(.english)
            }
        }
    }

    @Test func anAppsShopIsTestedWithAStandIn() async throws {
        let delivered = PurchaseEvent.delivered(
            Delivery(transactionID: "1", productID: "gold60", grants: Grants(["gold": 60])))
        let shop = Shop(purchases: FakeCoordinator(answer: delivered))
        let product = try #require(try await shop.purchases.products().first)
        #expect(await shop.tapBuy(product) == "Got 60 gold")
        let waiting = Shop(
            purchases: FakeCoordinator(
                answer: .pending(PendingPurchase(productID: "gold60", reason: .askToBuy))))
        #expect(await waiting.tapBuy(product) == PendingPurchaseReason.askToBuy.message(.english))
        let failure = PurchaseFailure(productID: "gold60", reason: .cancelled)
        #expect(failure.reason == .cancelled && ProductCatalogError(code: "x", message: "y").description == "x: y")
    }

    /// The app's shop over the real coordinator: compiles only while `PurchaseCoordinator` is one.
    static func shop(over coordinator: PurchaseCoordinator) -> Shop { Shop(purchases: coordinator) }
}
