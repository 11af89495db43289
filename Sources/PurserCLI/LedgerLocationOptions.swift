import ArgumentParser
import Configuration
import Foundation
import PurserServer

/// Where a command finds the ledger on its own, without the server's other parts (`ledger check`, `keys`): the
/// configuration file, or the data directory or PostgreSQL URL alone.
struct LedgerLocationOptions: ParsableArguments {
    @Option(help: "The server's JSON configuration file.") var config: String?
    @Option(name: .customLong("data-dir"), help: "The data directory holding the SQLite ledger.")
    var dataDirectory: String?
    @Option(name: .customLong("database-url"), help: "The PostgreSQL ledger (postgres://user@host:port/db).")
    var databaseURL: String?

    /// The configuration with `--data-dir` and `--database-url` over it.
    func settings() async throws -> ServerConfiguration {
        var flags: [AbsoluteConfigKey: ConfigContent] = [:]
        flags["dataDirectory"] = dataDirectory.map(ConfigContent.string)
        flags["database.url"] = databaseURL.map(ConfigContent.string)
        return try await ServerConfiguration.loadForCommand(file: config, flags: flags)
    }
}
