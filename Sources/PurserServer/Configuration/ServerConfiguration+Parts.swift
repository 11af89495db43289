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
            throw ConfigurationError("\(catalogFile): \(error)")
        }
    }

    /// The ledger the configuration names: PostgreSQL at `database.url` (with `database.password`), shared by several
    /// replicas, or else the embedded SQLite ledger `purser.sqlite` in `dataDirectory`. A PostgreSQL store connects
    /// when it first runs: run it in the server's service group (`PurserAssembly` does), or with `whileRunning`.
    public func openLedger(logger: Logger) async throws -> any LedgerStore {
        if let url = database.url {
            do {
                return PostgresLedgerStore(
                    configuration: try .init(url: url, password: database.password), logger: logger)
            } catch {
                throw ConfigurationError("database.url: \(error.message)")
            }
        }
        return try await SQLiteLedgerStore.open(path: sqliteLedgerPath, logger: logger)
    }

    /// Where `serve` puts its own backups: `backup.directory`, or `backups` in `dataDirectory`.
    public var backupDirectory: String {
        backup.directory ?? URL(fileURLWithPath: dataDirectory).appendingPathComponent("backups").path
    }

    /// Where the SQLite ledger lives: `purser.sqlite` in `dataDirectory` (without `database.url`).
    public var sqliteLedgerPath: String {
        URL(fileURLWithPath: dataDirectory).appendingPathComponent("purser.sqlite").path
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
            if let external = configuration.simulator.url {
                guard let url = URL(string: external), url.scheme == "http" || url.scheme == "https" else {
                    throw ConfigurationError("simulator.url must be an http(s) URL, not \(external)")
                }
                return try await externalSimulator(at: url, configuration: configuration)
            }
            return try await persistentSimulator(configuration, catalog: catalog, placement: simulatorPlacement)
        }
    }
}
