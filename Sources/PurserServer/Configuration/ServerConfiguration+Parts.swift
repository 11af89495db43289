import AppStoreSimulator
import Foundation
import Logging
import PurserCore
import PurserStorage

extension ServerConfiguration {
    /// The product catalog from `catalogFile`.
    public func loadCatalog() throws(ConfigurationError) -> ProductCatalog {
        guard let catalogFile else {
            throw ConfigurationError("no product catalog: set catalogFile in the configuration or pass --catalog")
        }
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: catalogFile)) } catch {
            throw ConfigurationError("cannot read the catalog \(catalogFile)")
        }
        do {
            return try ProductCatalog(json: data)
        } catch {
            throw ConfigurationError(error.problems.map { "\(catalogFile): \($0)" })
        }
    }

    /// The ledger the configuration names (`ledgerLocation()`), opened: PostgreSQL at `database.url` (with
    /// `database.password`), shared by several replicas, or else the embedded SQLite ledger `purser.sqlite` in
    /// `dataDirectory`; a further app of `apps` (`ledgerApp`) has its own. Its webhook events name `bundleId` and get
    /// random ids (`OutboxIdentity`; `eventSeed` seeds them, for a chaos run that replays).
    public func openLedger(logger: Logger, eventSeed: UInt64? = nil) async throws -> any LedgerStore {
        try await ledgerLocation().open(bundleId: bundleId, logger: logger, eventSeed: eventSeed)
    }

    /// Where the ledger of these settings lives: the PostgreSQL database at `database.url` (with `database.password`),
    /// in the schema `postgresSchema(forApp:)` for a further app of `apps` (`ledgerApp`), or else the SQLite file
    /// `sqliteLedgerPath`.
    /// - Throws: `ConfigurationError` under `database.url` for a URL that does not name a PostgreSQL database.
    public func ledgerLocation() throws(ConfigurationError) -> LedgerLocation {
        guard let url = database.url else { return .sqlite(path: sqliteLedgerPath) }
        do {
            var configuration = try PostgresLedgerStore.Configuration(url: url, password: database.password)
            if let ledgerApp { configuration = try configuration.inSchema(Self.postgresSchema(forApp: ledgerApp)) }
            return .postgres(configuration)
        } catch {
            throw ConfigurationError("database.url: \(error.message)")
        }
    }

    /// `simulator.url`, an external App Store simulator's base URL; `nil` when unset.
    /// - Throws: `ConfigurationError` for a value that is not an http(s) URL.
    func simulatorURL() throws(ConfigurationError) -> URL? {
        guard let external = simulator.url else { return nil }
        guard let url = URL(string: external), url.scheme == "http" || url.scheme == "https" else {
            throw ConfigurationError("simulator.url must be an http(s) URL, not \(external)")
        }
        return url
    }

    /// `simulator.storekitFile` read: the products the simulator inside this server sells; `nil` when unset.
    /// - Throws: `ConfigurationError` for a file that cannot be read or is not a StoreKit configuration.
    func simulatorStoreKitCatalog() throws(ConfigurationError) -> StoreKitConfiguration? {
        guard let file = simulator.storekitFile, !file.isEmpty else { return nil }
        do {
            return try StoreKitConfiguration(contentsOf: URL(fileURLWithPath: file))
        } catch {
            throw ConfigurationError("simulator.storekitFile: \(error.message)")
        }
    }

    /// Where `serve` puts its own backups: `backup.directory`, or `backups` in `dataDirectory`; a further app's
    /// (`ledgerApp`) in a folder named after its bundle id inside that.
    public var backupDirectory: String {
        let directory = backup.directory ?? URL(fileURLWithPath: dataDirectory).appendingPathComponent("backups").path
        return ledgerApp.map { URL(fileURLWithPath: directory).appendingPathComponent($0).path } ?? directory
    }

    /// Where the SQLite ledger lives: `purser.sqlite` in `dataDirectory` (without `database.url`); a further app's
    /// (`ledgerApp`) is `apps/BUNDLE_ID.sqlite` there.
    public var sqliteLedgerPath: String {
        if let ledgerApp { return Self.sqliteLedgerPath(dataDirectory: dataDirectory, app: ledgerApp) }
        return URL(fileURLWithPath: dataDirectory).appendingPathComponent("purser.sqlite").path
    }
}

extension AppStoreAccess {
    /// The App Store the configuration names: Apple's endpoints (`appStore: apple`); with `appStore: simulator`, the
    /// simulator at `simulator.url`, or else the one kept in the data directory, hosted by this server or, for the
    /// support commands, reached at `simulatorPlacement`; that one signs each product of `catalog` with its type.
    public static func configured(
        _ configuration: ServerConfiguration, catalog: ProductCatalog,
        simulatorPlacement: SimulatorPlacement = .hosted(notifications: .sent)
    ) async throws -> AppStoreAccess {
        switch configuration.appStore {
        case .apple: return try apple(configuration)
        case .simulator:
            if let url = try configuration.simulatorURL() {
                return try await externalSimulator(at: url, configuration: configuration)
            }
            return try await persistentSimulator(configuration, catalog: catalog, placement: simulatorPlacement)
        }
    }
}
