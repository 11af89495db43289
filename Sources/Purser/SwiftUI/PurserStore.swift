#if canImport(Observation)
    import Foundation
    import Observation
    import PurserCore

    #if canImport(UIKit) && !os(watchOS)
        import UIKit
    #elseif canImport(AppKit) && !targetEnvironment(macCatalyst)
        import AppKit
    #endif

    /// The shop a SwiftUI app shows, observable: the products, which one is being bought, the last event the user
    /// should see, and the wallet's balances, kept up to date from the coordinator's events and wallet updates
    /// (`listen()`, streams of its own). Written against `PurchaseCoordinating`, so a preview or a test drives it
    /// with a stand-in.
    @MainActor
    @Observable
    public final class PurserStore {
        /// What the app sells (`load()`): the server's catalog joined with the store's names and prices.
        public private(set) var products: [PurchasableProduct] = []
        /// The product a `buy` is in progress for; nil when none. Disable the Buy buttons while it is set.
        public private(set) var buying: String?
        /// A restore is in progress.
        public private(set) var restoring = false
        /// The last event the user should hear of (`PurchaseEvent.isWorthShowing`), until `dismiss()`; its
        /// `message()` is the sentence to show.
        public private(set) var lastEvent: PurchaseEvent?
        /// Why the last `buy`, `restore`, `spend` or `load` did not go through, as a sentence for the user that says
        /// whether anything was charged or taken (`PurchaseError.message()`, `SpendError.message()`).
        public private(set) var errorMessage: String?
        /// The signed-in user's balances by currency: read by `load()` and `refreshWallet()`, then following the
        /// coordinator's `walletUpdates` (read again after every purchase, restore, refund and spend made through it)
        /// and `spend`'s own answer. A change made elsewhere (the game's backend) shows at the next of these.
        public private(set) var balances: [String: Int64] = [:]
        /// The non-consumables the server credited to the user, by product id.
        public private(set) var entitlements: Set<String> = []

        /// The coordinator behind the store.
        @ObservationIgnored public let coordinator: any PurchaseCoordinating
        @ObservationIgnored private let language: PurserLanguage

        /// - Parameters:
        ///   - coordinator: the app's one coordinator (or a stand-in in a preview or test).
        ///   - language: the language of `errorMessage`.
        public init(coordinator: any PurchaseCoordinating, language: PurserLanguage = .current) {
            self.coordinator = coordinator
            self.language = language
        }

        /// Listens to the coordinator's events and wallet updates until the calling task is cancelled:
        /// `.task { await store.listen() }` on the shop's root view. Each call has its own streams, so a second
        /// listener takes nothing from this one.
        public func listen() async {
            let events = coordinator.events
            async let wallets: Void = follow(coordinator.walletUpdates)
            for await event in events { receive(event) }
            await wallets
        }

        /// Loads the products and the wallet (after sign-in).
        public func load() async {
            do throws(ProductCatalogError) {
                products = try await coordinator.products()
            } catch {
                errorMessage = PurchaseError.server(
                    PurserAPIError(kind: .unavailable, code: error.code, message: error.message)
                ).message(language)
            }
            await refreshWallet()
        }

        /// Reads the wallet from the server again; keeps the last balances when it cannot.
        public func refreshWallet() async {
            guard let wallet = try? await coordinator.wallet() else { return }
            show(wallet)
        }

        /// Spends `amounts` from the wallet through the coordinator (once, journaled: `spend(_:reason:)`); the
        /// balances show the answer at once. Returns what was spent, for the game to grant; nil when it was not, with
        /// `errorMessage` saying why (refused: nothing was taken; no answer: it completes by itself, once).
        @discardableResult
        public func spend(_ amounts: [String: Int64], reason: String) async -> SpendResult? {
            do throws(SpendError) {
                let result = try await coordinator.spend(amounts, reason: reason)
                balances.merge(result.balances) { $1 }
                return result
            } catch {
                errorMessage = error.message(language)
                return nil
            }
        }

        /// Buys `product`, with the payment sheet in `anchor` when the app has one (a scene or window). The outcome
        /// arrives as `lastEvent` (through `listen()`) and the balances follow.
        public func buy(_ product: PurchasableProduct, confirmIn anchor: PurchaseAnchor? = nil) async {
            guard buying == nil else { return }
            buying = product.id
            defer { buying = nil }
            do throws(PurchaseError) {
                _ = try await coordinator.buy(product, quantity: 1, confirmIn: anchor)
            } catch {
                errorMessage = error.message(language)
            }
        }

        #if canImport(UIKit) && !os(watchOS)
            /// Buys `product` with the payment sheet in `scene`, the one the user tapped Buy in.
            public func buy(_ product: PurchasableProduct, confirmIn scene: UIScene) async {
                await buy(product, confirmIn: PurchaseAnchor(scene))
            }
        #elseif canImport(AppKit) && !targetEnvironment(macCatalyst)
            /// Buys `product` with the payment sheet on `window`.
            public func buy(_ product: PurchasableProduct, confirmIn window: NSWindow) async {
                await buy(product, confirmIn: PurchaseAnchor(window))
            }
        #endif

        /// Restore Purchases: what the App Store hands back is settled and arrives as events; the balances follow.
        public func restore() async {
            guard !restoring else { return }
            restoring = true
            defer { restoring = false }
            do throws(RestoreError) {
                _ = try await coordinator.restore()
            } catch {
                errorMessage = error.message(language)
            }
            await refreshWallet()
        }

        /// The user read the message: clears `lastEvent` and `errorMessage`.
        public func dismiss() {
            lastEvent = nil
            errorMessage = nil
        }

        /// The event, if the user should see it. The balances follow through `walletUpdates`: the coordinator reads
        /// the wallet again in a task of its own, so a view's `.task` that ends (and cancels `listen()`) never cancels
        /// a request in flight (on Linux that can deadlock FoundationNetworking).
        private func receive(_ event: PurchaseEvent) {
            if event.isWorthShowing { lastEvent = event }
        }

        private func follow(_ wallets: AsyncStream<WalletResponse>) async {
            for await wallet in wallets { show(wallet) }
        }

        private func show(_ wallet: WalletResponse) {
            balances = wallet.balances
            entitlements = Set(wallet.entitlements)
        }
    }
#endif
