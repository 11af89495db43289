import AppStoreSimulator
import AppStoreVerification
import Crypto
import Foundation
import Hummingbird
import Logging
import NIOCore
import PurserCore
import PurserServer
import PurserStorage
import ServiceLifecycle

/// A real Purser server for one run, with the App Store simulator it trusts (and its App Store Server API, so
/// reconciliation works) and `NetworkFaults` in front of the submission route. Either inside this process
/// (`run`, where sabotage can swap parts) or as `purser serve` child processes behind a front (`runReplicas`),
/// where the harness can kill a replica with SIGKILL.
public struct ChaosServer: Sendable {
    public static let bundleID = "com.example.chaos"
    /// The admin API's token in this run: the spending game backend's credential.
    static let adminToken = "chaos-admin-" + String(UInt64.random(in: .min ... .max), radix: 16)
    public static let catalog = ProductCatalog([
        ProductDefinition(id: "gold60", type: .consumable, grants: Grants(["gold": 60])),
        ProductDefinition(id: "gold120", type: .consumable, grants: Grants(["gold": 120])),
        ProductDefinition(id: "noads", type: .nonConsumable, grants: Grants(["noads": 1])),
    ])
    public static let deviceProducts = [
        DeviceProduct(id: "gold60", displayName: "60 Gold", price: Decimal(string: "0.99")!),
        DeviceProduct(id: "gold120", displayName: "120 Gold", price: Decimal(string: "1.99")!),
        DeviceProduct(id: "noads", displayName: "No Ads", price: Decimal(string: "2.99")!, kind: .nonConsumable),
    ]

    public let appStore: SimulatedAppStore
    public let serverAPI: SimulatedServerAPI
    public let store: any LedgerStore
    public let network: NetworkFaults
    public let clock: ChaosClock
    /// Where apps send their requests.
    public let url: URL
    /// Runs one reconciliation with the App Store Server API, telling `progress` how far it got (in process), and
    /// describes what it did.
    public let reconcile: @Sendable (_ progress: @escaping @Sendable (String) -> Void) async throws -> String
    /// The `purser serve` processes behind `url`; empty when the server runs inside this process.
    let replicas: ReplicaSet?
    /// The game's backend, which the server's webhooks reach.
    public let gameBackend: GameBackend
    /// The app (bundle id) this view of the server is: a studio run (`runStudio`) has one view per app.
    public var app: String = ChaosServer.bundleID
    /// Where the ledger lives, for the evidence a failed run keeps: its SQLite file, or its PostgreSQL database.
    var ledgerFile: String? = nil
    var databaseURL: String? = nil

    /// Whether the heal phase may move the clock a day forward: only when the server runs on this clock.
    var sharesClock: Bool { replicas == nil }

    /// What the run's server is configured with: the chaos bundle, both environments, a free loopback port,
    /// development authentication, `verifyReceipt` answered within 2 s, no periodic reconciliation (a run sets its
    /// own interval) and the periodic finishing at Apple run by the harness only (in the heal phase), the apps allowed to spend (`wallet.clientSpend`) and the
    /// admin API on, for the spending game backend.
    static var configuration: ServerConfiguration {
        var configuration = ServerConfiguration()
        configuration.host = "127.0.0.1"
        configuration.port = 0
        configuration.bundleId = bundleID
        configuration.environments = [.sandbox, .production]
        configuration.auth.mode = .development
        configuration.verifyReceiptTimeoutSeconds = 2
        configuration.reconciliation.intervalSeconds = 0
        configuration.finishing.intervalSeconds = 0
        configuration.wallet.clientSpend = true
        configuration.admin.token = adminToken
        return configuration
    }

    /// The heal phase's server-side finishing: what Purser owes Apple (credits no app finished, the owners' tokens),
    /// run again while Apple's injected faults defer some of it (at most five runs).
    static func finishAtApple(_ followUps: AppleFollowUps) async throws -> AppleFollowUps.Summary {
        var total = AppleFollowUps.Summary()
        for _ in 0..<5 {
            let summary = try await followUps.run()
            total.add(summary)
            if summary.deferred == 0 { break }
        }
        return total
    }

    /// The heal's reconciliation in this process, as `purser reconcile` runs it: once the server's own periodic run
    /// (which holds the lease) is done, then what Purser owes Apple.
    static func reconcile(
        _ reconciler: Reconciler, lease: LeasedWork, followUps: AppleFollowUps?,
        progress: @escaping @Sendable (String) -> Void
    ) async throws -> String {
        let ran = try await lease.runWhenFree(
            within: .seconds(120), waiting: { progress("the server's own run is reconciling; waiting") },
            { try await reconciler.run(progress: progress).description })
        guard let reconciled = ran else {
            throw ChaosError(.setupFailed, "the server's own reconciliation held its lease for 120 s")
        }
        guard let followUps else { return reconciled }
        return reconciled + "; finishing at Apple: \(try await finishAtApple(followUps))"
    }

    /// Starts a server in `directory`, runs `body` against it, and shuts it down. Unless it `deliversNotifications`, the
    /// simulator keeps Apple's notifications pending, so only apps (and reconciliation) reach the ledger.
    public static func run<T: Sendable>(
        directory: URL, clock: ChaosClock, sabotage: ChaosSabotage = .init(), deliversNotifications: Bool = true,
        seed: UInt64? = nil, reconcileEvery: Double = 0, _ body: @Sendable (ChaosServer) async throws -> T
    ) async throws -> T {
        try await runStudio(
            apps: 1, directory: directory, clock: clock, sabotage: sabotage,
            deliversNotifications: deliversNotifications, seed: seed, reconcileEvery: reconcileEvery
        ) { try await body($0[0]) }
    }

    /// The bundle id of a studio run's app `index` (`--apps`): the chaos bundle first.
    public static func appBundle(_ index: Int) -> String {
        index == 0 ? bundleID : "\(bundleID).app\(index + 1)"
    }

    /// Like `run`, for a studio of `apps` apps behind one server (`PurserStudio`), each with its own ledger, one
    /// simulator selling for all, and one game backend receiving every app's webhooks (the apps inherit the
    /// studio's one endpoint, as a studio with one backend configures it): `body` gets one view per app, sharing the
    /// URL, the simulator, the game backend, the network faults and the clock.
    public static func runStudio<T: Sendable>(
        apps: Int, directory: URL, clock: ChaosClock, sabotage: ChaosSabotage = .init(),
        deliversNotifications: Bool = true, seed: UInt64? = nil, reconcileEvery: Double = 0,
        _ body: @Sendable ([ChaosServer]) async throws -> T
    ) async throws -> T {
        var logger = Logger(label: "purser.chaos")
        logger.logLevel = .critical
        return try await withGameBackend(clock: clock, logger: logger) { [logger] backend, url in
            try await runStudio(
                directory: directory, clock: clock, sabotage: sabotage, deliversNotifications: deliversNotifications,
                seed: seed, reconcileEvery: reconcileEvery, backends: Array(repeating: (backend, url), count: apps),
                logger: logger, body)
        }
    }

    private static func runStudio<T: Sendable>(
        directory: URL, clock: ChaosClock, sabotage: ChaosSabotage, deliversNotifications: Bool, seed: UInt64?,
        reconcileEvery: Double, backends: [(GameBackend, URL)], logger: Logger,
        _ body: @Sendable ([ChaosServer]) async throws -> T
    ) async throws -> T {
        let authority = try SimulatorCertificateAuthority.generate(validity: .standard(now: clock.now()))
        let appStore = try SimulatedAppStore(
            signer: JWSSigner(authority: authority),
            configuration: .init(defaultBundleID: bundleID),
            now: { clock.now() })
        var configuration = Self.configuration
        configuration.reconciliation.intervalSeconds = reconcileEvery
        configuration.webhooks = webhookSettings(url: backends[0].1, secret: backends[0].0.secret)
        if backends.count > 1 {
            configuration.apps = backends.indices.map { index in
                var app = configuration.servedApps[0]
                app.bundleId = appBundle(index)  // the studio's webhook endpoint, inherited: one receiver for all
                return app
            }
        }
        var ledgers: [any LedgerStore] = []
        let files = backends.indices.map {
            directory.appendingPathComponent($0 == 0 ? "purser.sqlite" : "\(appBundle($0)).sqlite").path
        }
        for index in backends.indices {
            // Sabotage: every app writes the first app's ledger, as a studio without a partition would.
            if index > 0, let shared = sabotage.furtherAppsLedger {
                ledgers.append(shared(ledgers[0]))
                continue
            }
            let ledger = try await SQLiteLedgerStore.open(
                path: files[index],
                outbox: OutboxIdentity(
                    bundleID: appBundle(index),
                    seed: sabotage.sharedEventIDs ? (seed ?? 1) : seed.map { $0 &+ UInt64(index) },
                    stampsTime: !sabotage.sharedEventIDs),
                logger: logger)
            ledgers.append(sabotage.store?(ledger) ?? ledger)
        }
        let serverAPI = SimulatedServerAPI(store: appStore, pageSize: 200, now: { clock.now() })
        let first = try await AppStoreAccess.simulator(
            appStore, serverAPI: serverAPI, configuration: configuration.settings(for: configuration.servedApps[0]),
            placement: .hosted(notifications: deliversNotifications ? .onDemand : .kept),
            retryPolicy: .init(maximumAttempts: 6, baseDelay: .milliseconds(5), maximumDelay: .milliseconds(100)),
            now: { clock.now() })
        let accesses =
            try [first]
            + configuration.servedApps.dropFirst().map {
                try first.serving(configuration.settings(for: $0))
            }
        let studio = try PurserStudio.assemble(
            configuration, catalogs: Array(repeating: catalog, count: backends.count), ledgers: ledgers,
            appStores: accesses, logger: logger, now: { clock.now() }, webhookSeed: seed)
        let network = NetworkFaults()
        let (ports, portSink) = AsyncStream.makeStream(of: Int.self)
        let app = studio.application(middleware: [network.middleware]) { port in
            portSink.yield(port)
            portSink.finish()
        }
        let group = ServiceGroup(configuration: .init(services: [app], logger: logger))
        return try await withThrowingTaskGroup(of: T?.self) { tasks in
            tasks.addTask {
                try await group.run()
                return nil
            }
            var iterator = ports.makeAsyncIterator()
            guard let port = await iterator.next(), port > 0 else {
                await group.triggerGracefulShutdown()
                throw ChaosError(.setupFailed, "the server did not start listening")
            }
            var servers: [ChaosServer] = []
            for (index, assembly) in studio.apps.enumerated() {
                guard let reconciler = assembly.reconciler else {
                    await group.triggerGracefulShutdown()
                    throw ChaosError(.setupFailed, "the server has no App Store Server API to reconcile with")
                }
                let lease = assembly.reconciliationLease(holder: LeasedWork.holderName("chaos"))
                servers.append(
                    ChaosServer(
                        appStore: appStore, serverAPI: serverAPI, store: ledgers[index], network: network,
                        clock: clock, url: URL(string: "http://127.0.0.1:\(port)")!,
                        reconcile: { [followUps = assembly.appleFollowUps, lease] progress in
                            try await reconcile(reconciler, lease: lease, followUps: followUps, progress: progress)
                        },
                        replicas: nil, gameBackend: backends[index].0, app: appBundle(index),
                        ledgerFile: index > 0 && sabotage.furtherAppsLedger != nil ? nil : files[index]))
            }
            do {
                let result = try await body(servers)
                await group.triggerGracefulShutdown()
                try await tasks.waitForAll()
                return result
            } catch {
                await group.triggerGracefulShutdown()
                try? await tasks.waitForAll()
                throw error
            }
        }
    }
}
