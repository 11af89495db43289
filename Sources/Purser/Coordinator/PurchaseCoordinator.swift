import Foundation
import PurserCore

/// The purchase flow the app runs: order from the server → journal → pay with the order id as the account
/// token → submit → finish only when the server answers `finish: true` → close the journal entry. On launch, on
/// login, and (watching the device itself, see `RecoverySignals`) on returning to the foreground and when the network
/// comes back, it settles whatever StoreKit still holds unfinished, one transaction at a time, with backoff; nothing
/// is finished on a network error or a 5xx.
///
/// This file holds the state and the life cycle; the behaviour lives in extensions: `+Buying` (a purchase and the
/// product list), `+Recovery` (settling what StoreKit still holds), `+Settlement` (submitting one transaction and
/// obeying the answer) and `+StoreUpdates` (what StoreKit reports on its own).
public actor PurchaseCoordinator {
    /// How the coordinator retries and what triggers recovery; the defaults suit an app.
    public struct Configuration: Sendable {
        /// How often and how long to retry a submission that got no decision.
        public var retry: RetryPolicy
        /// Called at every named step; tests kill the app here.
        public var probe: PurchaseProbe
        /// Seeds the retry jitter; `nil` uses the system's random numbers.
        public var seed: UInt64?
        /// How to wait between retries.
        public var sleep: @Sendable (Duration) async throws -> Void
        /// The clock the journal's dates come from.
        public var now: @Sendable () -> Date
        /// What triggers recovery besides launch and login: by default the device's network and foreground
        /// signals, so the app never calls `recover(_:)` itself.
        public var signals: RecoverySignals

        /// A configuration; every argument has the default an app wants.
        public init(
            retry: RetryPolicy = RetryPolicy(), probe: PurchaseProbe = .none, seed: UInt64? = nil,
            sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) },
            now: @escaping @Sendable () -> Date = { Date() }, signals: RecoverySignals = .system
        ) {
            self.retry = retry
            self.probe = probe
            self.seed = seed
            self.sleep = sleep
            self.now = now
            self.signals = signals
        }
    }

    /// How a transaction reached the coordinator; decides between `delivered` and `redelivered`. A `restore` sends
    /// the transaction again even when this run settled it already.
    enum Origin {
        case purchase, update, recovery, restore
    }

    /// The app was killed at a probe, or shut down: nothing more happens in this coordinator.
    struct Terminated: Error {}

    /// What happens to purchases: a new stream for each access, so every listener hears every event from then on
    /// and one that stops takes nothing from another. Events sent before anyone listened go to the first listener.
    public nonisolated var events: AsyncStream<PurchaseEvent> { eventSink.subscribe() }
    private let eventSink = EventBroadcast<PurchaseEvent>()
    /// What became of the spends `spend` left unsettled (no answer), once recovery sent them again; a new stream for
    /// each access, as `events`.
    public nonisolated var spendOutcomes: AsyncStream<SpendOutcome> { spendSink.subscribe() }
    private let spendSink = EventBroadcast<SpendOutcome>()
    /// The signed-in user's wallet as it changes: a new stream for each access, starting with the last wallet read
    /// when it is still current, then each one read after a purchase, restore, refund or spend (through this
    /// coordinator) changed it, or when the app calls `wallet()`. Read again only while someone listens: each change
    /// then costs one `GET /v1/wallet`. What changes the wallet elsewhere (a spend from the game's backend, a refund
    /// Apple reports to the server later) shows at the next change here or the next `wallet()`.
    public nonisolated var walletUpdates: AsyncStream<WalletResponse> { walletSink.subscribe() }
    let walletSink = EventBroadcast<WalletResponse>(replay: .latest)
    /// Reads of the wallet started, and the latest whose answer was published (`+Wallet`).
    var walletReads = 0
    var walletPublished = 0
    let api: PurserAPIClient
    let journal: PurchaseJournal
    /// Where `spend` journals its ids; nil: `spend` is refused (`SpendError.noJournal`).
    let spends: SpendJournal?
    let store: any StoreAdapter
    let configuration: Configuration
    let catalog: ProductCatalogCache
    var random: SeededGenerator
    private(set) var session: PurserSession?
    private(set) var alive = true
    private var started = false
    /// Listens to `configuration.signals` from `start()` until shutdown.
    private var signalListener: Task<Void, Never>?
    /// Products with a `buy` in progress.
    var buying: Set<String> = []
    /// Orders whose `buy` answered `storeBusy` in this run: their payment, when it lands, is news to the user (each
    /// is forgotten once its transaction arrives).
    var stalledOrders: Set<OrderID> = []
    /// Transactions queued or being settled, with whoever waits for their outcome.
    var claimed: [String: [CheckedContinuation<PurchaseEvent?, Never>]] = [:]
    /// Transactions this run finished, with the event it reported.
    var settled: [String: PurchaseEvent] = [:]
    /// Settles one transaction at a time, in arrival order.
    let serial = AsyncSerialLock()

    /// The app's one coordinator, built at launch and kept for the app's lifetime.
    /// - Parameters:
    ///   - api: the client of the app's Purser server.
    ///   - journal: where each purchase is recorded before it is paid (`KeychainJournalStore` on Apple platforms).
    ///   - store: the StoreKit adapter (`StoreKit2Adapter` or `StoreKit1Adapter`).
    ///   - spends: where `spend` journals each spend before sending it (the app's container); without one,
    ///     `spend` is refused, since a spend that cannot be resent after a crash could be lost or doubled.
    ///   - configuration: retries and recovery signals; the defaults suit an app.
    public init(
        api: PurserAPIClient, journal: PurchaseJournal, store: any StoreAdapter, spends: SpendJournal? = nil,
        configuration: Configuration = Configuration()
    ) {
        self.api = api
        self.journal = journal
        self.spends = spends
        self.store = store
        self.configuration = configuration
        self.catalog = ProductCatalogCache(api: api, store: store)
        self.random = SeededGenerator(seed: configuration.seed ?? UInt64.random(in: 0...UInt64.max))
    }

    deinit {
        signalListener?.cancel()
    }

    // MARK: Life cycle

    /// Call at launch, before anything else: starts listening to StoreKit and to the recovery signals, and settles
    /// what an earlier run left. `session`: the user the app restored at launch, if it did, so what StoreKit hands
    /// over at once is settled for them (the same as `login` right after).
    public func start(session: PurserSession? = nil) async {
        guard alive, !started else { return }
        started = true
        if let session { self.session = session }
        await store.start { [weak self] update in await self?.receive(update) }
        let triggers = configuration.signals.triggers()
        signalListener = Task { [weak self] in
            for await trigger in triggers { await self?.recover(trigger) }
        }
        await recover(.launch)
    }

    /// The app's user signed in; their purchases (and any left unfinished) are settled now.
    public func login(_ session: PurserSession) async {
        // The last wallet read was someone else's. (A read of theirs still in flight is not published: `wallet()`.)
        if self.session?.userID != session.userID { walletSink.forget() }
        self.session = session
        await recover(.login)
    }

    /// The user signed out. Unfinished transactions wait for the next login.
    public func logout() {
        session = nil
        walletSink.forget()
    }

    /// Stops everything: no more submissions, finishes or events.
    public func shutdown() async {
        await terminate()
    }

    // MARK: Plumbing

    /// Sends `event` to the app (unless the coordinator is terminated) and returns it.
    @discardableResult
    func emit(_ event: PurchaseEvent) -> PurchaseEvent {
        guard alive else { return event }
        eventSink.send(event)
        switch event {
        case .delivered, .redelivered: walletChanged()
        case .failed(let failure) where failure.reason == .refunded: walletChanged()
        case .deliveredToOtherAccount, .pending, .failed: break
        }
        return event
    }

    /// Sends `outcome` to the app (unless the coordinator is terminated).
    func emit(_ outcome: SpendOutcome) {
        if alive { spendSink.send(outcome) }
    }

    /// Reports `step` to the probe; a probe that throws kills the app here, and the caller stops with `Terminated`.
    func step(_ step: PurchaseStep) async throws {
        guard alive else { throw Terminated() }
        do {
            try await configuration.probe.check(step)
        } catch {
            await terminate()
            throw Terminated()
        }
    }

    private func terminate() async {
        guard alive else { return }
        alive = false
        eventSink.finish()
        spendSink.finish()
        walletSink.finish()
        signalListener?.cancel()
        await store.stop()
    }
}
