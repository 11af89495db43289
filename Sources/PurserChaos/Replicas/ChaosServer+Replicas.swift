import AppStoreSimulator
import AppStoreSimulatorHTTP
import AsyncHTTPClient
import Foundation
import Hummingbird
import Logging
import PurserServer
import PurserStorage
import ServiceLifecycle

extension ChaosServer {
    /// How the replicas of a run keep their ledger.
    public struct ReplicaSetup: Sendable {
        /// How many `purser serve` processes (SQLite: one).
        public var count: Int
        /// The `purser` binary the replicas run (the one a user runs).
        public var executable: URL
        /// `nil`: the embedded SQLite ledger; otherwise a PostgreSQL URL the replicas share.
        public var databaseURL: String?
        /// The replicas' `reconciliation.intervalSeconds` (0: off, only the heal's `purser reconcile`).
        public var reconcileEvery: Double
        /// The replicas' `log.format`.
        public var logFormat = LogFormat.text

        public init(count: Int, executable: URL, databaseURL: String? = nil, reconcileEvery: Double = 0) {
            self.count = count
            self.executable = executable
            self.databaseURL = databaseURL
            self.reconcileEvery = reconcileEvery
        }
    }

    /// Runs `body` against `setup.count` real `purser serve` processes, started from configuration files in
    /// `directory`, behind a round-robin front that also carries the apps' network faults. The App Store simulator
    /// runs in this process on its own port, reached by every replica (`simulator.url`), and sends Apple's
    /// notifications to the front. Reconciliation runs as `purser reconcile`. The harness reads the same ledger.
    public static func runReplicas<T: Sendable>(
        _ setup: ReplicaSetup, directory: URL, clock: ChaosClock, _ body: @Sendable (ChaosServer) async throws -> T
    ) async throws -> T {
        var logger = Logger(label: "purser.chaos")
        logger.logLevel = .critical
        return try await withGameBackend(clock: clock, logger: logger) { [logger] backend, backendURL in
            try await runReplicas(
                setup, directory: directory, clock: clock, backend: backend, backendURL: backendURL, logger: logger,
                body)
        }
    }

    private static func runReplicas<T: Sendable>(
        _ setup: ReplicaSetup, directory: URL, clock: ChaosClock, backend: GameBackend, backendURL: URL,
        logger: Logger, _ body: @Sendable (ChaosServer) async throws -> T
    ) async throws -> T {
        let authority = try SimulatorCertificateAuthority.generate(validity: .standard(now: clock.now()))
        let appStore = try SimulatedAppStore(
            signer: JWSSigner(authority: authority), configuration: .init(defaultBundleID: bundleID),
            now: { clock.now() })
        let serverAPI = SimulatedServerAPI(store: appStore, pageSize: 200, now: { clock.now() })
        let client = HTTPClient(
            eventLoopGroupProvider: .singleton,
            configuration: .init(
                connectionPool: .init(idleTimeout: .seconds(30), concurrentHTTP1ConnectionsPerHostSoftLimit: 64)))
        let network = NetworkFaults()
        let front = ReplicaFront(replicas: setup.count, faults: network, client: client)
        let ports = AsyncStream.makeStream(of: (String, Int).self)
        let router = Router()
        SimulatorRoutes(store: appStore).addRoutes(to: router)
        ServerAPIRoutes(api: serverAPI).addRoutes(to: router)
        let simulator = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { ports.continuation.yield(("simulator", $0.localAddress?.port ?? 0)) }, logger: logger)
        let frontApp = front.application { ports.continuation.yield(("front", $0)) }
        let group = ServiceGroup(configuration: .init(services: [simulator, frontApp], logger: logger))
        return try await withThrowingTaskGroup(of: T?.self) { tasks in
            tasks.addTask {
                try await group.run()
                return nil
            }
            var listening: [String: Int] = [:]
            for await (name, port) in ports.stream {
                listening[name] = port
                if listening.count == 2 { break }
            }
            let replicas = ReplicaSet(
                processes: (1...setup.count).map { index in
                    ServerProcess(
                        name: "replica-\(index)", executable: setup.executable,
                        configuration: directory.appendingPathComponent("replica-\(index).json"),
                        logDirectory: directory.appendingPathComponent("logs"))
                }, front: front, client: client)
            let settings: ServerConfiguration
            do {
                guard let simulatorPort = listening["simulator"], let frontPort = listening["front"] else {
                    throw ChaosError(.setupFailed, "the simulator or the front did not start listening")
                }
                await appStore.deliverNotifications(
                    to: URL(string: "http://127.0.0.1:\(frontPort)/v1/appstore/notifications")!,
                    transport: HTTPClientTransport(client: client, recordsCalls: false))
                settings = try writeConfigurations(
                    setup, directory: directory, simulator: URL(string: "http://127.0.0.1:\(simulatorPort)")!,
                    webhooks: webhookFileSettings(url: backendURL, secret: backend.secret))
                try await replicas.startAll()
            } catch {
                await replicas.stopAll()
                await group.triggerGracefulShutdown()
                try? await tasks.waitForAll()
                try? await client.shutdown()
                throw error
            }
            let reconcileConfiguration = directory.appendingPathComponent("replica-1.json")
            let frontURL = URL(string: "http://127.0.0.1:\(listening["front"]!)")!
            let outcome: Result<T, any Error>
            do {
                // The harness reads the replicas' ledger for its checks, with the same settings they use.
                let store = try await settings.openLedger(logger: logger)
                outcome = .success(
                    try await store.whileRunning {
                        try await body(
                            ChaosServer(
                                appStore: appStore, serverAPI: serverAPI, store: store, network: network, clock: clock,
                                url: frontURL,
                                reconcile: { _ in
                                    try await reconcile(setup.executable, configuration: reconcileConfiguration)
                                },
                                replicas: replicas, gameBackend: backend,
                                ledgerFile: settings.database.url == nil ? settings.sqliteLedgerPath : nil,
                                databaseURL: settings.database.url))
                    })
            } catch {
                outcome = .failure(error)
            }
            await replicas.stopAll()
            await group.triggerGracefulShutdown()
            try? await tasks.waitForAll()
            try? await client.shutdown()
            return try outcome.get()
        }
    }
}
