import Configuration
import Foundation
import Logging
import PurserCore
import PurserServer
import PurserStorage

extension PurserAssembly {
    /// The server of one resolved app (`ResolvedConfiguration.app(_:)`), for the commands: its catalog, the App Store
    /// `appStore` makes for it, and its ledger. Opening leaves no ledger open behind it when it fails, and no SQLite
    /// ledger file that this call created.
    static func open(
        _ app: ResolvedApp, appStore: (ResolvedApp) async throws -> AppStoreAccess, logger: Logger
    ) async throws -> PurserAssembly {
        let access = try await appStore(app)
        return try await openingLedgers(of: [app], logger: logger) { ledgers in
            PurserAssembly(app: app, store: ledgers[0], appStore: access, logger: logger)
        }
    }
}

extension PurserStudio {
    /// The studio a resolved configuration describes, for `serve`: every app's App Store access and ledger (the first
    /// app's where a single-app Purser kept it, each other app's its own), built from the resolved values. Opening
    /// leaves no ledger open behind it when it fails, and no SQLite ledger file this call created.
    static func open(
        _ resolved: ResolvedConfiguration,
        appStores: (ResolvedConfiguration) async throws -> [AppStoreAccess], logger: Logger
    ) async throws -> PurserStudio {
        let accesses = try await appStores(resolved)
        return try await openingLedgers(of: resolved.apps, logger: logger) { ledgers in
            PurserStudio.assemble(resolved, ledgers: ledgers, appStores: accesses, logger: logger)
        }
    }
}

/// Opens the ledger of each of `apps` (at its `ledger`) and builds from them with `build`; when opening or building
/// throws, the ledgers are closed and every SQLite ledger file this call created is removed, so a failed start
/// leaves nothing behind.
private func openingLedgers<T>(
    of apps: [ResolvedApp], logger: Logger, _ build: ([any LedgerStore]) throws -> T
) async throws -> T {
    var ledgers: [any LedgerStore] = []
    var created: [String] = []
    do {
        for app in apps {
            if case .sqlite(let path) = app.ledger, !FileManager.default.fileExists(atPath: path) {
                created.append(path)
            }
            ledgers.append(try await app.ledger.open(bundleId: app.bundleId, logger: logger))
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

    /// The settings a command runs with, resolved (`resolve(file:environment:flags:logger:)`): a configuration that
    /// cannot be used throws one `ConfigurationError` listing every problem.
    static func resolveForCommand(
        file: String?, flags: [AbsoluteConfigKey: ConfigContent], logger: Logger? = nil
    ) async throws -> ResolvedConfiguration {
        try await resolve(file: file.map(URL.init(fileURLWithPath:)), flags: flags, logger: logger)
    }
}
