import AppStoreSimulator
import AppStoreSimulatorHTTP
import AppStoreVerification
import Crypto
import Foundation
import Hummingbird
import Logging
import PurserCore
import PurserStorage

extension AppStoreAccess {
    /// Where the simulator that stands in for Apple runs.
    public enum SimulatorPlacement: Sendable {
        /// Inside this server: its control API and Apple's endpoints on the server's own port, its App Store Server
        /// API reached over loopback, and its notifications sent to this server as `notifications` says.
        case hosted(notifications: SimulatorNotifications)
        /// In a server already running at this base URL (the support commands reach `purser serve`'s simulator).
        case remote(URL)
    }

    /// What the hosted simulator does with the Notifications V2 it signs.
    public enum SimulatorNotifications: Sendable {
        /// Sent to this server as Apple sends them: a service delivers what is due every 250 ms (`purser serve`).
        case sent
        /// Addressed to this server, sent whenever someone calls `deliverDueNotifications` (tests, chaos's heal).
        case onDemand
        /// Kept in the simulator (benchmarks, tests of a device that never reaches the server).
        case kept
    }

    /// The issuer of the App Store Server API keys Purser registers with its simulator.
    public static let simulatorIssuer = "purser-appstore-simulator"

    /// The id of a Server API key: as Apple's, ten characters of its own, here the start of its public key's SHA-256,
    /// so servers sharing one simulator each keep theirs (with one id for every key, the last server to register
    /// replaced the others' keys and their calls were refused with 401).
    public static func simulatorKeyID(for key: P256.Signing.PublicKey) -> String {
        SHA256.hash(data: key.x963Representation).prefix(5).map { String(format: "%02X", $0) }.joined()
    }

    /// The App Store simulator `store` in Apple's place: its roots trusted (beside Apple's and `trustedRootFiles`),
    /// `verifyReceipt` answered in-process, and its App Store Server API (`serverAPI`) called with `apiKey`, which is
    /// registered with it. Never for production: the server warns at start.
    public static func simulator(
        _ store: SimulatedAppStore, serverAPI: SimulatedServerAPI, configuration: ServerConfiguration,
        apiKey: P256.Signing.PrivateKey = .init(), placement: SimulatorPlacement = .hosted(notifications: .sent),
        retryPolicy: AppStoreServerAPIClient.RetryPolicy = .init(), now: @escaping @Sendable () -> Date = { Date() }
    ) async throws -> AppStoreAccess {
        let keyID = simulatorKeyID(for: apiKey.publicKey)
        await serverAPI.register(
            .init(
                issuerId: simulatorIssuer, keyId: keyID, bundleId: configuration.bundleId,
                otherBundleIds: configuration.servedApps.map(\.bundleId).filter { $0 != configuration.bundleId },
                publicKey: apiKey.publicKey))
        let loopback = LoopbackTransport()
        let base: URL
        let transport: any AppStoreHTTPTransport
        switch placement {
        case .hosted: (base, transport) = (LoopbackTransport.placeholder, loopback)
        case .remote(let url): (base, transport) = (url, HTTPClientTransport())
        }
        let api = try AppStoreServerAPIClient(
            configuration: .init(
                issuerID: simulatorIssuer, keyID: keyID, bundleID: configuration.bundleId,
                privateKey: apiKey, baseURL: base, retryPolicy: retryPolicy, now: now),
            transport: transport)
        let receipts = VerifyReceiptClient(
            configuration: .init(
                productionURL: SimulatorTransport.productionVerifyReceiptURL,
                sandboxURL: SimulatorTransport.sandboxVerifyReceiptURL,
                sharedSecret: configuration.sharedSecret, timeout: configuration.verifyReceiptTimeout),
            transport: SimulatorTransport(store: store))
        let extra = try configuration.extraTrustedRoots()
        var access = AppStoreAccess(
            trustedRoots: [AppleRootCertificates.rootCAG3, store.signer.authority.root] + extra,
            receiptRoots: [AppleRootCertificates.appleIncRoot, store.receiptAuthority.root] + extra,
            receipts: receipts, serverAPI: api)
        if case .hosted(let notifications) = placement {
            access.hosted = hosted(store, serverAPI: serverAPI, loopback: loopback, notifications: notifications)
        }
        return access
    }

    /// The simulator as a part of this server: routes, the notification sender, the loopback once the port is known.
    private static func hosted(
        _ store: SimulatedAppStore, serverAPI: SimulatedServerAPI, loopback: LoopbackTransport,
        notifications: SimulatorNotifications
    ) -> HostedAppStore {
        // Purser's own calls to the simulator's App Store Server API get a listener of their own on loopback. Over
        // the server's port they took connections from its limit (`http.maxConnections`): under load every slot was
        // a request waiting on such a call, the call could not connect, and the server stopped answering.
        let apple = Router()
        ServerAPIRoutes(api: serverAPI).addRoutes(to: apple)
        let serverAPIListener = Application(
            router: apple, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { loopback.listening(on: $0.localAddress?.port ?? 0) },
            logger: {
                var logger = Logger(label: "purser.appstore-simulator")
                logger.logLevel = .error  // its start is no news to the operator; the warning below says it all
                return logger
            }())
        return HostedAppStore(
            addRoutes: { router in
                SimulatorRoutes(store: store).addRoutes(to: router)
                ServerAPIRoutes(api: serverAPI).addRoutes(to: router)
            },
            services: [serverAPIListener] + (notifications == .sent ? [NotificationSenderService(store: store)] : []),
            serverStarted: { port in
                guard notifications != .kept else { return }
                await store.deliverNotifications(
                    to: URL(string: "http://127.0.0.1:\(port)/v1/appstore/notifications")!,
                    transport: HTTPClientTransport(recordsCalls: false))
            },
            warning: "APP STORE SIMULATOR IS ON: this server trusts the simulator's own root certificate and serves "
                + "its control API at /simulator/v1. Anyone can mint purchases. NEVER USE THIS IN PRODUCTION.")
    }

    /// The simulator of `purser serve --appstore simulator`, kept in `DATA/appstore-sim` with the App Store Server
    /// API key Purser uses against it (`server-api-key.pem`, made on first start, mode 0600). It signs each product
    /// of `catalog` with the catalog's type (it once signed every product Consumable, and Purser rejected the
    /// non-consumables it sold with product_type_mismatch). With `simulator.storekitFile` it sells only that file's
    /// products, at its prices.
    public static func persistentSimulator(
        _ configuration: ServerConfiguration, catalog: ProductCatalog,
        placement: SimulatorPlacement = .hosted(notifications: .sent)
    ) async throws -> AppStoreAccess {
        let directory = URL(fileURLWithPath: configuration.dataDirectory).appendingPathComponent("appstore-sim")
        // The data directory is made here when the simulator's keys come before the ledger: owner-only, as the
        // ledger's would be.
        try OwnerOnlyFiles.createDirectory(atPath: directory.path)
        let store = try SimulatedAppStore.persistent(
            in: directory, bundleID: configuration.bundleId, appAppleID: configuration.appAppleId,
            catalog: try configuration.simulatorStoreKitCatalog(),
            productTypes: catalog.products.mapValues(\.type.appleType))
        return try await simulator(
            store, serverAPI: SimulatedServerAPI(store: store), configuration: configuration,
            apiKey: try simulatorAPIKey(in: directory), placement: placement)
    }

    static func simulatorAPIKey(in directory: URL) throws -> P256.Signing.PrivateKey {
        let file = directory.appendingPathComponent("server-api-key.pem")
        if let pem = try? String(contentsOf: file, encoding: .utf8) {
            return try P256.Signing.PrivateKey(pemRepresentation: pem)
        }
        let key = P256.Signing.PrivateKey()
        try OwnerOnlyFiles.createDirectory(atPath: directory.path)
        try Data(key.pemRepresentation.utf8).write(to: file, options: .atomic)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
        return key
    }
}
