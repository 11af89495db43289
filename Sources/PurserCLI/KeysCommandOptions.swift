import ArgumentParser
import Configuration
import Foundation
import Logging
import PurserServer
import PurserStorage

/// Where `purser keys` finds the ledger: the configuration file, or the data directory or PostgreSQL URL alone. The
/// keys it makes may be limited to the configuration's apps.
struct KeysCommandOptions: ParsableArguments {
    @Option(help: "The server's JSON configuration file.") var config: String?
    @Option(name: .customLong("data-dir"), help: "The data directory holding the SQLite ledger.")
    var dataDirectory: String?
    @Option(name: .customLong("database-url"), help: "The PostgreSQL ledger (postgres://user@host:port/db).")
    var databaseURL: String?

    /// Runs `body` on the keys of the ledger, migrated first (a key needs migration 14's table), and closes it.
    func withKeys<T: Sendable>(_ body: @Sendable @escaping (APIKeyService) async throws -> T) async throws -> T {
        var flags: [AbsoluteConfigKey: ConfigContent] = [:]
        flags["dataDirectory"] = dataDirectory.map(ConfigContent.string)
        flags["database.url"] = databaseURL.map(ConfigContent.string)
        let settings = try await ServerConfiguration.loadForCommand(file: config, flags: flags)
        var logger = Logger(label: "purser.keys")
        logger.logLevel = .warning
        let store = try await settings.openLedger(logger: logger)
        return try await store.whileRunning {
            try await store.migrate()
            return try await body(APIKeyService(store: store, apps: [settings.bundleId], now: { Date() }))
        }
    }
}
