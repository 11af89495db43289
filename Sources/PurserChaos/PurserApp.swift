import AppStoreSimulator
import Foundation
import Purser
import PurserCore
import PurserStorage

/// The app with Purser inside, installed on one simulated device: at each `launch`, a StoreKit adapter for the new
/// process, the journal file and a `PurchaseCoordinator` on a `PurserAPIClient`. Each launch is a new process (new
/// memory) over the same journal file and StoreKit queue. Before every finish it asks the ledger whether a decision
/// existed (invariant 5). The chaos run's `ChaosApp` and the SDK tests' app build on it.
public struct PurserApp: Sendable {
    /// How the app is built.
    public struct Configuration: Sendable {
        /// The journal lives in the device's Keychain-like directory (it survives uninstall), not its container.
        public var journalInKeychain: Bool
        /// How long closed journal entries are kept (the journal's `retention`).
        public var journalRetention: TimeInterval
        /// How long the StoreKit 1 adapter waits in `purchasing` before `buy` answers that the store is busy.
        public var purchasingTimeout: Duration
        public var retry: RetryPolicy
        /// Seeds the coordinator's retry jitter, so a run replays.
        public var seed: UInt64
        /// Wraps each launch's StoreKit adapter: a broken StoreKit, or a stand-in for behaviour the simulator lacks.
        public var wrapAdapter: @Sendable (any StoreAdapter) -> any StoreAdapter
        /// The coordinator's recovery signals: none by default (the host's network and foreground have nothing to do
        /// with a simulated device, and a run must replay); tests pass their own.
        public var recoverySignals: RecoverySignals

        public init(
            journalInKeychain: Bool = false, journalRetention: TimeInterval = 30 * 86_400,
            purchasingTimeout: Duration = .seconds(3), retry: RetryPolicy = RetryPolicy(), seed: UInt64 = 1,
            wrapAdapter: @escaping @Sendable (any StoreAdapter) -> any StoreAdapter = { $0 },
            recoverySignals: RecoverySignals = .none
        ) {
            self.journalInKeychain = journalInKeychain
            self.journalRetention = journalRetention
            self.purchasingTimeout = purchasingTimeout
            self.retry = retry
            self.seed = seed
            self.wrapAdapter = wrapAdapter
            self.recoverySignals = recoverySignals
        }
    }

    /// The crash a launch's probe injects.
    struct Crash: Error {
        let step: PurchaseStep
    }

    public let device: SimulatedDevice
    public let generation: StoreKitGeneration
    public let configuration: Configuration
    private let api: PurserAPIClient
    private let clock: ChaosClock

    /// Installs the app on `device`. It talks to the server through `api` and reads the time from `clock`; before
    /// every finish it reads `ledger`, and calls `onEarlyFinish` with the transaction and what the ledger showed
    /// (no record, unbound, or unreadable) when the server had not decided yet.
    public init(
        device: SimulatedDevice, generation: StoreKitGeneration, api: PurserAPIClient, ledger: any LedgerStore,
        clock: ChaosClock, configuration: Configuration = .init(),
        onEarlyFinish: @escaping @Sendable (_ transactionID: String, _ ledger: String) -> Void
    ) {
        self.device = device
        self.generation = generation
        self.configuration = configuration
        self.api = api
        self.clock = clock
        device.onFinish { transactionID in
            // Invariant 5: the ledger must hold a decision before the app finishes. A read that fails is retried (for
            // up to 30 s: a database failover's gap answers storage_unavailable at once until the standby is
            // promoted), and reported as such if it keeps failing, never taken for "no decision".
            var failure: (any Error)?
            for attempt in 0..<300 {
                do {
                    let recorded = try await ledger.transaction(transactionID)
                    if let recorded, recorded.state != .unbound { return }
                    return onEarlyFinish(transactionID, recorded?.state.rawValue ?? "no record")
                } catch {
                    failure = error
                    guard attempt >= 2 else { continue }
                    guard (error as? StorageError)?.code == .unavailable else { break }
                    try? await Task.sleep(for: .milliseconds(100))
                }
            }
            onEarlyFinish(transactionID, "unreadable: \(String(describing: failure))")
        }
    }

    /// The journal's file, in the container or the Keychain as configured.
    public var journalURL: URL {
        let directory = configuration.journalInKeychain ? device.keychainDirectory : device.containerDirectory
        return directory.appendingPathComponent("journal.json")
    }

    /// The spend journal's file, beside the journal.
    public var spendJournalURL: URL {
        journalURL.deletingLastPathComponent().appendingPathComponent("spends.json")
    }

    /// The journal as it is on disk now (what a launch reads).
    public func openJournal() throws(JournalStoreError) -> PurchaseJournal {
        let clock = self.clock
        return try PurchaseJournal(
            store: FileJournalStore(url: journalURL), retention: configuration.journalRetention,
            now: { clock.now() })
    }

    /// Starts a new process of the app (a running one is killed): opens the journal, builds the adapter and the
    /// coordinator, which starts (settling what an earlier run left) and signs `user` in. The process dies at the
    /// first step `crashes` answers true for: the device kills it and the coordinator stops there.
    public func launch(
        user: String?, crashes: @escaping @Sendable (PurchaseStep) -> Bool = { _ in false }
    ) async throws(JournalStoreError) -> PurserAppProcess {
        let process = device.launch()
        let journal = try openJournal()
        let adapter = configuration.wrapAdapter(
            generation.makeAdapter(in: process, purchasingTimeout: configuration.purchasingTimeout))
        let device = self.device
        let probe = PurchaseProbe { step in
            if crashes(step) {
                device.kill()
                throw Crash(step: step)
            }
        }
        let clock = self.clock
        let coordinator = PurchaseCoordinator(
            api: api, journal: journal, store: adapter, spends: try SpendJournal(url: spendJournalURL),
            configuration: .init(
                retry: configuration.retry, probe: probe, seed: configuration.seed,
                now: { clock.now() }, signals: configuration.recoverySignals))
        let app = PurserAppProcess(process: process, coordinator: coordinator, journal: journal)
        await app.run {
            await coordinator.start()
            if let user { await app.login(user) }
        }
        return app
    }
}
