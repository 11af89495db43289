import Configuration
import Foundation
import Logging
import PurserCore
import PurserServer
import PurserStorage

extension PurserAssembly {
    /// The server a configuration describes, for the commands: the catalog, the App Store and the ledger it names.
    /// A configuration that cannot be used throws its `ConfigurationError` (`purser` prints it and exits 1), leaves
    /// no ledger open behind it, and no SQLite ledger file that this call created.
    static func open(
        _ settings: ServerConfiguration,
        appStore: (ServerConfiguration, ProductCatalog) async throws -> AppStoreAccess,
        logger: Logger
    ) async throws -> PurserAssembly {
        let catalog = try settings.loadCatalog()
        let access = try await appStore(settings, catalog)
        return try await openingLedgers(of: [settings], logger: logger) { ledgers in
            try PurserAssembly(
                configuration: settings, catalog: catalog, store: ledgers[0], appStore: access, logger: logger)
        }
    }
}

extension PurserStudio {
    /// The studio a configuration describes, for `serve`: every app's catalog, App Store access and ledger (the
    /// first app's where a single-app Purser kept it, each other app's its own). A configuration that cannot be
    /// used throws its `ConfigurationError`, leaves no ledger open behind it, and no SQLite ledger file this call
    /// created.
    static func open(
        _ settings: ServerConfiguration,
        appStores: (ServerConfiguration, [ProductCatalog]) async throws -> [AppStoreAccess], logger: Logger
    ) async throws -> PurserStudio {
        try settings.checkApps()
        let apps = settings.servedApps.map(settings.settings(for:))
        let catalogs = try apps.map { try $0.loadCatalog() }
        let accesses = try await appStores(settings, catalogs)
        return try await openingLedgers(of: apps, logger: logger) { ledgers in
            try PurserStudio.assemble(
                settings, catalogs: catalogs, ledgers: ledgers, appStores: accesses, logger: logger)
        }
    }
}

/// Opens the ledger of each of `apps` and builds from them with `build`; when opening or building throws, the
/// ledgers are closed and every SQLite ledger file this call created is removed, so an unusable configuration leaves
/// nothing behind.
private func openingLedgers<T>(
    of apps: [ServerConfiguration], logger: Logger, _ build: ([any LedgerStore]) throws -> T
) async throws -> T {
    var ledgers: [any LedgerStore] = []
    var created: [String] = []
    do {
        for app in apps {
            if app.database.url == nil, !FileManager.default.fileExists(atPath: app.sqliteLedgerPath) {
                created.append(app.sqliteLedgerPath)
            }
            ledgers.append(try await app.openLedger(logger: logger))
        }
        return try build(ledgers)
    } catch {
        for ledger in ledgers { try? await ledger.close() }
        for file in created {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: file + suffix) }
        }
        throw error
    }
}

extension ServerConfiguration {
    /// The settings a command runs with (`--config`, `PURSER_*`, its flags); an unusable configuration throws its
    /// `ConfigurationError`, naming the file or the key.
    static func loadForCommand(
        file: String?, flags: [AbsoluteConfigKey: ConfigContent],
        logger: Logger? = nil
    ) async throws -> ServerConfiguration {
        try await load(file: file.map(URL.init(fileURLWithPath:)), flags: flags, logger: logger)
    }
}
