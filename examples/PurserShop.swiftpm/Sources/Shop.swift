import Foundation
import Observation
import Purser
import PurserStoreKit

/// The app's one `PurchaseCoordinator`, talking to a local `purser serve` with development authentication (the user
/// is whoever `userID` says: never in production, where the session carries your sign-in's bearer token).
@MainActor @Observable
final class Shop {
    /// Where `purser serve` listens (the iOS Simulator reaches the Mac's loopback address).
    static let server = URL(string: "http://127.0.0.1:8080")!

    let userID = "alice"
    let purchases: PurchaseCoordinator
    private(set) var products: [PurchasableProduct] = []
    private(set) var notice: String?
    private(set) var history: [String] = []

    init() {
        do {
            // The API client, the purchase journal (in the Keychain) and the spend journal, with the defaults.
            purchases = try PurchaseCoordinator(server: Self.server, store: StoreKit2Adapter())
        } catch {
            fatalError("Purser cannot read its journal: \(error)")
        }
        // The one listener of `events`, for the app's whole life.
        Task { [weak self, events = purchases.events] in
            for await event in events { self?.record(event) }
        }
    }

    /// At launch: StoreKit's listener, the recovery signals, the signed-in user, the product list.
    func start() async {
        await purchases.start()
        await purchases.login(PurserSession(userID: userID, authorization: .development))
        do {
            products = try await purchases.products()
        } catch {
            notice = "The product list is not available: \(error)"
        }
    }

    func buy(_ product: PurchasableProduct) async {
        do throws(PurchaseError) {
            _ = try await purchases.buy(product.id)  // its event also arrives on `events`
        } catch {
            notice = error.message()  // says whether the user may have been charged
        }
    }

    private func record(_ event: PurchaseEvent) {
        let text: String
        switch event {
        case .delivered(let delivery): text = "Delivered \(delivery.productID). Thank you!"
        case .redelivered(let delivery): text = "An earlier purchase of \(delivery.productID) has arrived."
        case .deliveredToOtherAccount: text = "This purchase went to the account that bought it."
        case .pending(let pending): text = pending.reason.message()
        case .failed(let failure): text = failure.reason.message()
        }
        notice = text
        history.insert(text, at: 0)
    }
}
