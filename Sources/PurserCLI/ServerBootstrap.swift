import AppStoreSimulator
import AppStoreVerification
import Crypto
import Foundation
import Logging
import PurserCore
import PurserServer
import PurserStorage
import SwiftASN1
import X509

/// Turns a `ServerConfiguration` into running parts: the ledger, the verifier, the catalog, the authenticator, the
/// App Store clients (`verifyReceipt`, the App Store Server API) and the services built on them. With
/// `appStore: simulator` an in-process App Store simulator stands in for Apple and the verifier trusts its root.
struct ServerBootstrap {
    var dependencies: PurserServerDependencies
    var simulator: SimulatorRoutes?
    var serverAPI: SimulatedServerAPI?
    /// Reconciliation, when App Store Server API credentials exist.
    var reconciler: Reconciler?
    /// Where the in-process simulator's App Store Server API is reached once the server listens.
    var loopback: LoopbackTransport?
    /// The in-process App Store simulator, with `appStore: simulator`.
    var appStore: SimulatedAppStore? { simulator?.store }

    /// - Parameter serverAPIBaseURL: where to reach the simulator's App Store Server API from another process
    ///   (`purser reconcile`, `lookup`, `grant`); `nil` inside `serve`, which reaches itself over loopback.
    static func make(_ configuration: ServerConfiguration, logger: Logger, serverAPIBaseURL: URL? = nil) async throws
        -> ServerBootstrap {
        let catalog = try loadCatalog(configuration)
        let dataDirectory = URL(fileURLWithPath: configuration.dataDirectory)
        var roots = [AppleRootCertificates.rootCAG3]
        for file in configuration.trustedRootFiles {
            guard let der = try? Data(contentsOf: URL(fileURLWithPath: file)),
                let root = try? Certificate(derEncoded: Array(der))
            else { throw ConfigurationError("trusted root \(file) is not a readable DER certificate") }
            roots.append(root)
        }
        let sharedSecret = configuration.sharedSecret
        let timeout = Duration.milliseconds(Int64(configuration.verifyReceiptTimeoutSeconds * 1000))
        let receipts: VerifyReceiptClient
        var warnings: [String] = []
        var simulator: SimulatorRoutes?
        var serverAPI: SimulatedServerAPI?
        var loopback: LoopbackTransport?
        var api: AppStoreServerAPIClient?
        if configuration.appStore == .simulator {
            let store = try makeSimulator(dataDirectory: dataDirectory, bundleID: configuration.bundleId,
                                          appAppleID: configuration.appAppleId)
            roots.append(store.signer.authority.root)
            simulator = SimulatorRoutes(store: store)
            receipts = VerifyReceiptClient(
                configuration: .init(productionURL: SimulatorTransport.productionVerifyReceiptURL,
                                     sandboxURL: SimulatorTransport.sandboxVerifyReceiptURL, sharedSecret: sharedSecret,
                                     timeout: timeout),
                transport: SimulatorTransport(store: store))
            let simulatedAPI = SimulatedServerAPI(store: store)
            serverAPI = simulatedAPI
            let key = try simulatorAPIKey(in: dataDirectory)
            await simulatedAPI.register(.init(issuerId: Self.simulatorIssuer, keyId: Self.simulatorKeyID,
                                              bundleId: configuration.bundleId, publicKey: key.publicKey))
            let transport: any AppStoreHTTPTransport
            if serverAPIBaseURL == nil {
                let own = LoopbackTransport()
                loopback = own
                transport = own
            } else {
                transport = HTTPClientTransport()
            }
            api = try AppStoreServerAPIClient(
                configuration: .init(issuerID: Self.simulatorIssuer, keyID: Self.simulatorKeyID, bundleID: configuration.bundleId,
                                     privateKey: key, baseURL: serverAPIBaseURL ?? LoopbackTransport.placeholder),
                transport: transport)
            warnings.append(
                "APP STORE SIMULATOR IS ON: this server trusts the simulator's own root certificate and serves its "
                    + "control API at /simulator/v1. Anyone can mint purchases. NEVER USE THIS IN PRODUCTION.")
        } else {
            receipts = VerifyReceiptClient(configuration: .init(sharedSecret: sharedSecret, timeout: timeout),
                                           transport: HTTPClientTransport())
            api = try makeServerAPIClient(configuration)
        }
        let authenticator = try configuration.makeAuthenticator()
        let ledger = try await SQLiteLedgerStore.open(
            path: dataDirectory.appendingPathComponent("purser.sqlite").path, logger: logger)
        let claims = ClaimsPolicy(bundleID: configuration.bundleId, environments: Set(configuration.environments),
                                  appAppleID: configuration.appAppleId)
        let verifier = SignedDataVerifier(configuration: .init(trustedRoots: roots))
        let submissions = SubmissionService(verifier: verifier, receipts: receipts, claims: claims, catalog: catalog,
                                            store: ledger)
        let consumption = api.flatMap { api in
            configuration.consumption.respond
                ? ConsumptionResponder.viaServerAPI(api, store: ledger, customerConsented: configuration.consumption.customerConsented)
                : nil
        }
        let notifications = NotificationService(submissions: submissions, consumption: consumption, logger: logger)
        let support = SupportService(submissions: submissions, apple: api.map(SupportService.AppleLookup.init))
        let dependencies = PurserServerDependencies(
            orders: OrderService(catalog: catalog, store: ledger), submissions: submissions, notifications: notifications,
            store: ledger, authenticator: authenticator, support: support,
            adminToken: configuration.admin.token, startupWarnings: warnings)
        return ServerBootstrap(dependencies: dependencies, simulator: simulator, serverAPI: serverAPI,
                               reconciler: api.map { Reconciler(api: $0, notifications: notifications) }, loopback: loopback)
    }

    static let simulatorIssuer = "purser-appstore-simulator"
    static let simulatorKeyID = "SIMULATOR1"

    static func loadCatalog(_ configuration: ServerConfiguration) throws -> ProductCatalog {
        guard let catalogFile = configuration.catalogFile else {
            throw ConfigurationError("no product catalog: set catalogFile in the configuration or pass --catalog")
        }
        do {
            return try ProductCatalog(json: try Data(contentsOf: URL(fileURLWithPath: catalogFile)))
        } catch let error as CatalogError {
            throw ConfigurationError("\(catalogFile): \(error)")
        } catch {
            throw ConfigurationError("cannot read the catalog \(catalogFile)")
        }
    }

    /// The App Store Server API client from `appStoreServerAPI` credentials; `nil` when none are configured.
    static func makeServerAPIClient(_ configuration: ServerConfiguration) throws -> AppStoreServerAPIClient? {
        let settings = configuration.appStoreServerAPI
        guard let issuer = settings.issuerId, let keyID = settings.keyId, let file = settings.privateKeyFile else { return nil }
        guard let pem = try? String(contentsOfFile: file, encoding: .utf8) else {
            throw ConfigurationError("appStoreServerAPI.privateKeyFile \(file) is not readable")
        }
        let base = settings.baseURL.flatMap(URL.init(string:))
            ?? (settings.environment == .sandbox ? AppStoreServerAPIClient.Configuration.sandboxURL
                : AppStoreServerAPIClient.Configuration.productionURL)
        do {
            return try AppStoreServerAPIClient(
                configuration: .init(issuerID: issuer, keyID: keyID, bundleID: configuration.bundleId, privateKeyPEM: pem,
                                     baseURL: base),
                transport: HTTPClientTransport())
        } catch {
            throw ConfigurationError("appStoreServerAPI: \(error)")
        }
    }

    /// The simulator kept in `DATA/appstore-sim`: its CA in `ca/`, its purchases in `transactions.jsonl`.
    static func makeSimulator(dataDirectory: URL, bundleID: String, appAppleID: Int64?) throws -> SimulatedAppStore {
        let directory = dataDirectory.appendingPathComponent("appstore-sim")
        let authority = try SimulatorCertificateAuthority.loadOrCreate(in: directory.appendingPathComponent("ca"), now: Date())
        return try SimulatedAppStore(
            signer: JWSSigner(authority: authority),
            configuration: .init(defaultBundleID: bundleID, appAppleID: appAppleID,
                                 journalFile: directory.appendingPathComponent("transactions.jsonl")))
    }

    /// The App Store Server API key Purser uses against its simulator, kept in `DATA/appstore-sim/server-api-key.pem`.
    static func simulatorAPIKey(in dataDirectory: URL) throws -> P256.Signing.PrivateKey {
        let file = dataDirectory.appendingPathComponent("appstore-sim/server-api-key.pem")
        if let pem = try? String(contentsOf: file, encoding: .utf8) {
            return try P256.Signing.PrivateKey(pemRepresentation: pem)
        }
        let key = P256.Signing.PrivateKey()
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(key.pemRepresentation.utf8).write(to: file, options: .atomic)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
        return key
    }
}
