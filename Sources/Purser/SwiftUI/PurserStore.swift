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
    /// should see, and the wallet's balances, kept up to date from the coordinator's events (`listen()`, one stream
    /// of its own). Written against `PurchaseCoordinating`, so a preview or a test drives it with a stand-in.
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
        /// Why the last `buy`, `restore` or `load` could not start, as a sentence for the user (nothing was charged).
        public private(set) var errorMessage: String?
        /// The signed-in user's balances by currency (`GET /v1/wallet`), refreshed after every credit.
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

        /// Listens to the coordinator's events until the calling task is cancelled: `.task { await store.listen() }`
        /// on the shop's root view. Each call has its own stream, so a second listener takes nothing from this one.
        public func listen() async {
            for await event in coordinator.events { receive(event) }
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
            balances = wallet.balances
            entitlements = Set(wallet.entitlements)
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

        private func receive(_ event: PurchaseEvent) {
            if event.isWorthShowing { lastEvent = event }
            switch event {
            case .delivered, .redelivered: refreshWalletSoon()
            case .failed(let failure) where failure.reason == .refunded: refreshWalletSoon()
            case .deliveredToOtherAccount, .pending, .failed: break
            }
        }

        /// Refreshes the wallet in a task of its own, not in the listener's: a view's `.task` that ends (and cancels
        /// `listen()`) must not cancel a request in flight (on Linux, cancelling a task inside `URLSession.data(for:)`
        /// can deadlock FoundationNetworking), and the balances still catch up.
        private func refreshWalletSoon() {
            Task { [weak self] in await self?.refreshWallet() }
        }
    }
#endif
