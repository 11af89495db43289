import AppStoreSimulator
import Foundation
import Logging
import PurserCore
import PurserServer
import PurserStorage

extension PostgresTestDatabase {
    /// The whole server on the PostgreSQL store of `configuration`, built by `PurserAssembly` as `serve` builds it:
    /// development authentication, no periodic reconciliation, one product (`gold60`, 60 gold), and a hosted
    /// simulator (its notifications kept) to pay with.
    static func server(on configuration: PostgresLedgerStore.Configuration) async throws -> (
        assembly: PurserAssembly, appStore: SimulatedAppStore
    ) {
        var settings = ServerConfiguration()
        settings.port = 0
        settings.bundleId = "com.example.app"
        settings.auth.mode = .development
        settings.reconciliation.intervalSeconds = 0
        let authority = try SimulatorCertificateAuthority.generate(validity: .standard(now: Date()))
        let appStore = try SimulatedAppStore(
            signer: JWSSigner(authority: authority), configuration: .init(defaultBundleID: settings.bundleId))
        let assembly = try PurserAssembly(
            configuration: settings,
            catalog: ProductCatalog([ProductDefinition(id: "gold60", type: .consumable, grants: Grants(["gold": 60]))]),
            store: PostgresLedgerStore(configuration: configuration, logger: logger),
            appStore: try await .simulator(
                appStore, serverAPI: SimulatedServerAPI(store: appStore), configuration: settings,
                placement: .hosted(notifications: .kept)),
            logger: logger)
        return (assembly, appStore)
    }
}
