import AppStoreSimulator
import AppStoreVerification
import Foundation
import Purser
import PurserChaos
import PurserCore
import Testing

/// Every scenario runs with both StoreKit generations.
extension StoreKitGeneration: CustomTestStringConvertible {
    public var testDescription: String { rawValue }
}

/// Where the app keeps its journal.
enum JournalLocation: Sendable {
    /// In the app's container: gone after uninstall.
    case container
    /// Keychain-like: survives uninstall.
    case keychain
}

/// The SDK tests' app: a `PurserApp` on a new device, talking to a `LiveServer`, that records every finish made
/// before the server decided. Each `launch` is a new process of the app: new memory, the same journal file and the
/// same StoreKit queue.
struct SimulatedApp: Sendable {
    let server: LiveServer
    let app: PurserApp
    /// Finishes that happened before the server had a decision (must stay empty: invariant 5).
    let earlyFinishes: EarlyFinishLog

    /// - Parameters:
    ///   - purchasingTimeout: how long the StoreKit 1 adapter waits in `purchasing`.
    ///   - wrapAdapter: wraps each launch's adapter (a stand-in for StoreKit behaviour the simulator does not
    ///     produce).
    ///   - recoverySignals: the coordinator's recovery signals (none unless a test fires its own).
    init(
        server: LiveServer, generation: StoreKitGeneration, journal: JournalLocation = .container,
        configuration: SimulatedDevice.Configuration = .init(), purchasingTimeout: Duration = .seconds(3),
        wrapAdapter: @escaping @Sendable (any StoreAdapter) -> any StoreAdapter = { $0 },
        recoverySignals: RecoverySignals = .none
    ) {
        self.server = server
        let early = EarlyFinishLog()
        self.earlyFinishes = early
        let device = SimulatedDevice(
            id: "device-\(UUID().uuidString.prefix(8))", store: server.appStore, products: ChaosServer.deviceProducts,
            directory: server.directory.appendingPathComponent("devices/\(UUID())"), configuration: configuration)
        self.app = PurserApp(
            device: device, generation: generation, api: PurserAPIClient(baseURL: server.url, timeout: 5),
            ledger: server.store, clock: server.clock,
            configuration: .init(
                journalInKeychain: journal == .keychain, purchasingTimeout: purchasingTimeout,
                retry: RetryPolicy(maxAttempts: 4, baseDelay: .milliseconds(5), maxDelay: .milliseconds(40)), seed: 42,
                wrapAdapter: wrapAdapter, recoverySignals: recoverySignals),
            onEarlyFinish: { transactionID, _ in early.record(transactionID) })
    }

    /// Starts a `LiveServer`, installs the app on a new device against it, and runs `body` with both.
    static func run(
        _ generation: StoreKitGeneration, journal: JournalLocation = .container,
        configuration: SimulatedDevice.Configuration = .init(), purchasingTimeout: Duration = .seconds(3),
        wrapAdapter: @escaping @Sendable (any StoreAdapter) -> any StoreAdapter = { $0 },
        recoverySignals: RecoverySignals = .none,
        _ body: @Sendable (SimulatedApp, LiveServer) async throws -> Void
    ) async throws {
        try await LiveServer.run { server in
            let app = SimulatedApp(
                server: server, generation: generation, journal: journal,
                configuration: configuration, purchasingTimeout: purchasingTimeout,
                wrapAdapter: wrapAdapter, recoverySignals: recoverySignals)
            try await body(app, server)
        }
    }

    var device: SimulatedDevice { app.device }

    /// The journal as it is on disk now (read without launching the app).
    func launchJournal() throws -> PurchaseJournal {
        try app.openJournal()
    }

    /// Starts the app; `user` signs in right after launch. The app dies at `crashAt`.
    func launch(user: String?, crashAt: PurchaseStep? = nil) async throws -> AppProcess {
        AppProcess(try await app.launch(user: user, crashes: { $0 == crashAt }))
    }

    /// `user` buys `productID` and the app dies right after StoreKit reported the payment, before submitting it.
    /// Returns the unfinished transaction's id.
    func payThenCrash(
        user: String, productID: String = "gold60",
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> String {
        let run = try await launch(user: user, crashAt: .paid)
        await #expect(throws: PurchaseError.terminated, sourceLocation: sourceLocation) { try await run.buy(productID) }
        return try #require(device.unfinishedTransactionIDs.last, sourceLocation: sourceLocation)
    }

    /// Checks invariants 2 and 5 for `transactionID`: finished exactly once, and never before the server decided.
    func expectFinishedOnce(_ transactionID: String, sourceLocation: SourceLocation = #_sourceLocation) async {
        let once = await eventually { device.finishCount(of: transactionID) == 1 }
        #expect(
            once, "transaction \(transactionID) finished \(device.finishCount(of: transactionID)) times",
            sourceLocation: sourceLocation)
        #expect(earlyFinishes.transactionIDs.isEmpty, "finished before a decision", sourceLocation: sourceLocation)
    }
}
