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
        let ledgerFile = settings.database.url == nil ? settings.sqliteLedgerPath : nil
        let existed = ledgerFile.map { FileManager.default.fileExists(atPath: $0) } ?? true
        let store = try await settings.openLedger(logger: logger)
        do {
            return try PurserAssembly(
                configuration: settings, catalog: catalog, store: store, appStore: access, logger: logger)
        } catch {
            try? await store.close()
            if let ledgerFile, !existed {
                for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: ledgerFile + suffix) }
            }
            throw error
        }
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
