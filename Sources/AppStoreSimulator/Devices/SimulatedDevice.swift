import AppStoreVerification
import Foundation
import PurserCore
import Synchronization

/// A phone as StoreKit behaves on it in the field, paying through a `SimulatedAppStore`: unfinished transactions are
/// redelivered whenever an observer or listener starts, buying a product whose earlier purchase is unfinished only
/// reports `purchasing` (StoreKit 1), `applicationUsername` can come back nil (on a redelivered transaction at a
/// seeded rate, by default), `SKPaymentQueue.transactions` is empty until an observer is registered, restored
/// purchases come back as new `restored` transactions, an offline device fails requests as a phone does, the app
/// receipt carries every unfinished consumable, Ask to Buy defers a payment until a parent approves, and the app can
/// be killed, uninstalled and relaunched while StoreKit's queue survives.
///
/// The app side sees it only through the StoreKit shims; tests drive it with `launch`, `kill`, `uninstall`,
/// `queueOutcomes` and `approveAskToBuy`. The behaviour lives in extensions named after it: `+Lifecycle` (launch,
/// kill, uninstall), `+PaymentSheet` (what the user does with a payment), `+Charging` (Apple charges, payment
/// labels), `+AskToBuy`, `+StoreKit1` (the payment queue and its observers), `+StoreKit2` (`Product.purchase`,
/// `Transaction.updates`), `+Finishing` (finishing and what stays unfinished), `+Receipt`, `+Redelivery` (what a
/// transaction loses when redelivered), `+Restore`, `+AppTransaction` and `+Network` (offline).
public final class SimulatedDevice: Sendable {
    public struct Configuration: Sendable {
        /// How often `applicationUsername` / the account token goes missing.
        public var lostApplicationUsername: TokenLoss
        /// The share (0...1) of StoreKit 1 transactions whose `applicationUsername` is nil whenever they are
        /// redelivered to a later run of the app (after a relaunch), drawn once per transaction from `seed`. Apple
        /// still has the token; only the callback and `SKPaymentQueue.transactions` lose it, as developers report.
        public var applicationUsernameLostOnRedelivery: Double
        /// Deliver every purchased transaction twice, as StoreKit sometimes does.
        public var duplicateCallbacks: Bool
        /// Payments wait for a parent's approval (`approveAskToBuy`).
        public var askToBuy: Bool
        /// Seeds the device's random choices, so a run replays exactly (each choice is drawn from the seed and what it
        /// is about, not from a shared sequence, so concurrent callbacks do not change it).
        public var seed: UInt64
        public var environment: AppStoreEnvironment
        /// The app installed on the device, which its purchases, receipt and app transaction name; `nil`: the
        /// simulator's default bundle.
        public var bundleID: String?

        public init(
            lostApplicationUsername: TokenLoss = .never, applicationUsernameLostOnRedelivery: Double = 0.5,
            duplicateCallbacks: Bool = false, askToBuy: Bool = false, seed: UInt64 = 1,
            environment: AppStoreEnvironment = .sandbox, bundleID: String? = nil
        ) {
            self.bundleID = bundleID
            self.lostApplicationUsername = lostApplicationUsername
            self.applicationUsernameLostOnRedelivery = applicationUsernameLostOnRedelivery
            self.duplicateCallbacks = duplicateCallbacks
            self.askToBuy = askToBuy
            self.seed = seed
            self.environment = environment
        }
    }

    /// Where `applicationUsername` gets lost.
    public enum TokenLoss: Sendable, Hashable {
        case never
        /// StoreKit 1 callbacks carry no `applicationUsername` at this rate (0...1); Apple still recorded the UUID,
        /// so signed transactions keep their `appAccountToken`.
        case onCallback(rate: Double)
        /// The token never reaches Apple at this rate (as when an app passed no UUID): callbacks, receipts and signed
        /// transactions all lack it, and only the app's journal can tell which order a purchase was for.
        case everywhere(rate: Double)
    }

    /// Everything the device holds, behind one lock; the extensions read and change it.
    struct State {
        var generation = 0
        var running = false
        var observers: [Int: Observer] = [:]
        var listeners: [Int: AsyncStream<DeviceTransaction>.Continuation] = [:]
        var nextID = 0
        /// Purchased and not finished, oldest first: StoreKit's persistent queue.
        var unfinished: [DeviceTransaction] = []
        /// Failed StoreKit 1 payments, until the app finishes them.
        var failed: [DeviceTransaction] = []
        /// Restored StoreKit 1 transactions, until the app finishes them.
        var restored: [DeviceTransaction] = []
        var deferred: [Deferred] = []
        var outcomes: [PaymentOutcome] = []
        /// Slow payment sheets open now: the user has not paid yet, and Apple has charged nothing for them.
        var openSheets = 0
        /// Held sheets (`payWhenReleased`) waiting for their release, oldest first, and releases that came first.
        var heldSheets: [CheckedContinuation<Void, Never>] = []
        var earlyReleases = 0
        /// The run of the app (generation) each purchase was paid in, by queue id.
        var paidGeneration: [String: Int] = [:]
        /// How often each entry was shown in a callback, by queue id (a key of the seeded draws).
        var callbacks: [String: Int] = [:]
        /// Charges attempted (a key of the seeded draws).
        var chargeAttempts = 0
        var offline = false
        var receiptPresent = false
        /// StoreKit's cached signed app transaction (`AppTransaction.shared`); deleted with the app.
        var appTransaction: String?
        var finishCount: [String: Int] = [:]
        var finishHook: FinishHook?
        /// Every transaction Apple charged on this device, oldest first.
        var charged: [Charge] = []
        /// How often the app synchronised with the App Store (StoreKit 2's `AppStore.sync()`).
        var syncs = 0
    }

    public let id: String
    public let store: SimulatedAppStore
    public let configuration: Configuration
    /// The app's sandbox: removed on uninstall.
    public let containerDirectory: URL
    /// A Keychain-like place that survives uninstall.
    public let keychainDirectory: URL
    let catalog: [String: DeviceProduct]
    let state: Mutex<State>

    /// - Parameters:
    ///   - directory: where the device keeps the app's container and its Keychain.
    public init(
        id: String, store: SimulatedAppStore, products: [DeviceProduct], directory: URL,
        configuration: Configuration = .init()
    ) {
        self.id = id
        self.store = store
        self.configuration = configuration
        self.containerDirectory = directory.appendingPathComponent("container")
        self.keychainDirectory = directory.appendingPathComponent("keychain")
        self.catalog = Dictionary(products.map { ($0.id, $0) }, uniquingKeysWith: { _, last in last })
        self.state = Mutex(State())
    }

    /// `Product.products(for:)` / `SKProductsRequest`: the known ones among `ids`.
    public func products(_ ids: some Sequence<String>) -> [DeviceProduct] {
        ids.compactMap { catalog[$0] }
    }

    /// A queue id for an entry Apple has not charged (yet): a payment in progress or deferred.
    func nextLocalID() -> String {
        state.withLock { state in
            state.nextID += 1
            return "local-\(id)-\(state.nextID)"
        }
    }
}
