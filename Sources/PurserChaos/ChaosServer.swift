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

/// A real Purser server for one run: the embedded ledger, an in-process App Store simulator it trusts (with its App
/// Store Server API, so reconciliation works), listening on a loopback port, with `NetworkFaults` in front of the
/// submission route.
public struct ChaosServer: Sendable {
    public static let bundleID = "com.example.chaos"
    public static let catalog = ProductCatalog([
        Product(id: "gold60", type: .consumable, grants: Grants(["gold": 60])),
        Product(id: "gold120", type: .consumable, grants: Grants(["gold": 120])),
    ])
    public static let deviceProducts = [
        DeviceProduct(id: "gold60", displayName: "60 Gold", price: Decimal(string: "0.99")!),
        DeviceProduct(id: "gold120", displayName: "120 Gold", price: Decimal(string: "1.99")!),
    ]

    public let appStore: SimulatedAppStore
    public let serverAPI: SimulatedServerAPI
    public let store: any LedgerStore
    public let network: NetworkFaults
    public let clock: ChaosClock
    public let reconciler: Reconciler
    /// Where apps send their requests.
    public let url: URL

    /// Starts a server in `directory`, runs `body` against it, and shuts it down. Unless it `deliversNotifications`, the
    /// simulator keeps Apple's notifications pending, so only apps (and reconciliation) reach the ledger.
    public static func run<T: Sendable>(
        directory: URL, clock: ChaosClock, sabotage: ChaosSabotage = .init(), deliversNotifications: Bool = true,
        _ body: @Sendable (ChaosServer) async throws -> T
    ) async throws -> T {
        var logger = Logger(label: "purser.chaos")
        logger.logLevel = .critical
        let authority = try SimulatorCertificateAuthority.generate(validity: .standard(now: clock.now()))
        let appStore = try SimulatedAppStore(signer: JWSSigner(authority: authority),
                                             configuration: .init(defaultBundleID: bundleID),
                                             now: { clock.now() })
        let ledger = try await SQLiteLedgerStore.open(path: directory.appendingPathComponent("purser.sqlite").path,
                                                      logger: logger)
        let store: any LedgerStore = sabotage.store?(ledger) ?? ledger
        let verifier = SignedDataVerifier(configuration: .init(trustedRoots: [authority.root]))
        let receipts = VerifyReceiptClient(
            configuration: .init(productionURL: SimulatorTransport.productionVerifyReceiptURL,
                                 sandboxURL: SimulatorTransport.sandboxVerifyReceiptURL, timeout: .seconds(2)),
            transport: SimulatorTransport(store: appStore))
        let submissions = SubmissionService(
            verifier: verifier, receipts: receipts,
            claims: ClaimsPolicy(bundleID: bundleID, environments: [.sandbox, .production]), catalog: catalog,
            store: store, now: { clock.now() })
        let serverAPI = SimulatedServerAPI(store: appStore, pageSize: 200, now: { clock.now() })
        let apiKey = P256.Signing.PrivateKey()
        await serverAPI.register(.init(issuerId: "chaos", keyId: "CHAOS1", bundleId: bundleID,
                                       publicKey: apiKey.publicKey))
        let loopback = LoopbackTransport()
        let api = try AppStoreServerAPIClient(
            configuration: .init(issuerID: "chaos", keyID: "CHAOS1", bundleID: bundleID, privateKey: apiKey,
                                 baseURL: LoopbackTransport.placeholder,
                                 retryPolicy: .init(maximumAttempts: 6, baseDelay: .milliseconds(5),
                                                    maximumDelay: .milliseconds(100)),
                                 now: { clock.now() }),
            transport: loopback)
        let notifications = NotificationService(submissions: submissions, logger: logger, now: { clock.now() })
        let dependencies = PurserServerDependencies(
            orders: OrderService(catalog: catalog, store: store, now: { clock.now() }), submissions: submissions,
            notifications: notifications, store: store, authenticator: DevelopmentAuthenticator())
        let network = NetworkFaults()
        let (ports, portSink) = AsyncStream.makeStream(of: Int.self)
        let app = PurserApplication.build(
            configuration: .init(address: .hostname("127.0.0.1", port: 0), serverName: "Purser"),
            dependencies: dependencies, logger: logger,
            onServerRunning: { channel in
                portSink.yield(channel.localAddress?.port ?? 0)
                portSink.finish()
            },
            addMiddleware: { $0.add(middleware: network.middleware) },
            addRoutes: { ServerAPIRoutes(api: serverAPI).addRoutes(to: $0) })
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
            loopback.listening(on: port)
            if deliversNotifications {
                await appStore.deliverNotifications(
                    to: URL(string: "http://127.0.0.1:\(port)/v1/appstore/notifications")!,
                    transport: HTTPClientTransport())
            }
            let server = ChaosServer(
                appStore: appStore, serverAPI: serverAPI, store: store, network: network, clock: clock,
                reconciler: Reconciler(api: api, notifications: notifications, now: { clock.now() }),
                url: URL(string: "http://127.0.0.1:\(port)")!)
            do {
                let result = try await body(server)
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
