import ArgumentParser
import Configuration
import Foundation
import Logging
import PurserServer
import PurserStorage

extension PurserAssembly {
    /// The server a configuration describes, for the commands: the catalog, the App Store and the ledger it names.
    /// A configuration that cannot be used is a `ValidationError` (a message and a non-zero exit), and leaves no
    /// ledger open behind it.
    static func open(
        _ settings: ServerConfiguration,
        appStore: (ServerConfiguration) async throws -> AppStoreAccess,
        logger: Logger
    ) async throws -> PurserAssembly {
        do {
            let catalog = try settings.loadCatalog()
            let access = try await appStore(settings)
            let store = try await settings.openLedger(logger: logger)
            do {
                return try PurserAssembly(
                    configuration: settings, catalog: catalog, store: store, appStore: access,
                    logger: logger)
            } catch {
                try? await store.close()
                throw error
            }
        } catch let error as ConfigurationError {
            throw ValidationError(error.description)
        }
    }
}

extension ServerConfiguration {
    /// The settings a command runs with (`--config`, `PURSER_*`, its flags); an unusable configuration is a
    /// `ValidationError` naming the file or the key.
    static func loadForCommand(
        file: String?, flags: [AbsoluteConfigKey: ConfigContent],
        logger: Logger? = nil
    ) async throws -> ServerConfiguration {
        do {
            return try await load(file: file.map(URL.init(fileURLWithPath:)), flags: flags, logger: logger)
        } catch let error as ConfigurationError {
            throw ValidationError(error.description)
        }
    }
}
