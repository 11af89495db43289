import AppStoreSimulator
import AppStoreVerification
import Foundation
import Logging
import PurserCore
import PurserServer
import PurserStorage
import SwiftASN1
import X509

/// Turns a `ServerConfiguration` into running parts: the ledger, the verifier, the catalog, the authenticator and,
/// with `appStore: simulator`, an in-process App Store simulator whose root the verifier trusts.
struct ServerBootstrap {
    var dependencies: PurserServerDependencies
    var simulator: SimulatorRoutes?
    /// The in-process App Store simulator, with `appStore: simulator`.
    var appStore: SimulatedAppStore? { simulator?.store }

    static func make(_ configuration: ServerConfiguration, logger: Logger) async throws -> ServerBootstrap {
        guard let catalogFile = configuration.catalogFile else {
            throw ConfigurationError("no product catalog: set catalogFile in the configuration or pass --catalog")
        }
        let catalog: ProductCatalog
        do {
            catalog = try ProductCatalog(json: try Data(contentsOf: URL(fileURLWithPath: catalogFile)))
        } catch let error as CatalogError {
            throw ConfigurationError("\(catalogFile): \(error)")
        } catch {
            throw ConfigurationError("cannot read the catalog \(catalogFile)")
        }
        let dataDirectory = URL(fileURLWithPath: configuration.dataDirectory)
        var roots = [AppleRootCertificates.rootCAG3]
        for file in configuration.trustedRootFiles {
            guard let der = try? Data(contentsOf: URL(fileURLWithPath: file)),
                let root = try? Certificate(derEncoded: Array(der))
            else { throw ConfigurationError("trusted root \(file) is not a readable DER certificate") }
            roots.append(root)
        }
        var warnings: [String] = []
        var simulator: SimulatorRoutes?
        let sharedSecret = ProcessInfo.processInfo.environment["PURSER_APPSTORE_SHARED_SECRET"] ?? configuration.sharedSecret
        let timeout = Duration.milliseconds(Int64(configuration.verifyReceiptTimeoutSeconds * 1000))
        var receipts = VerifyReceiptClient(configuration: .init(sharedSecret: sharedSecret, timeout: timeout),
                                           transport: HTTPClientTransport())
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
            warnings.append(
                "APP STORE SIMULATOR IS ON: this server trusts the simulator's own root certificate and serves its "
                    + "control API at /simulator/v1. Anyone can mint purchases. NEVER USE THIS IN PRODUCTION.")
        }
        let authenticator = try configuration.makeAuthenticator()
        let ledger = try await SQLiteLedgerStore.open(
            path: dataDirectory.appendingPathComponent("purser.sqlite").path, logger: logger)
        let claims = ClaimsPolicy(bundleID: configuration.bundleId, environments: Set(configuration.environments),
                                  appAppleID: configuration.appAppleId)
        let verifier = SignedDataVerifier(configuration: .init(trustedRoots: roots))
        let dependencies = PurserServerDependencies(
            orders: OrderService(catalog: catalog, store: ledger),
            submissions: SubmissionService(verifier: verifier, receipts: receipts, claims: claims, catalog: catalog,
                                           store: ledger),
            store: ledger, authenticator: authenticator, startupWarnings: warnings)
        return ServerBootstrap(dependencies: dependencies, simulator: simulator)
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
}
