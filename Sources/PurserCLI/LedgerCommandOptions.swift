import ArgumentParser
import Configuration
import Foundation
import Logging
import PurserServer
import PurserStorage

/// Options of the commands that work on a running server's ledger from outside (`webhooks`, and through
/// `SupportCommandOptions` `reconcile`, `lookup`, `grant`): the same configuration file as `serve`, the data directory
/// and the server's port.
struct LedgerCommandOptions: ParsableArguments {
    @Option(help: "The server's JSON configuration file.") var config: String?
    @Option(name: .customLong("data-dir"), help: "The server's data directory (default from the configuration).")
    var dataDirectory: String?
    @Option(
        help: """
            The running server's port (default from the configuration): with appStore simulator, the server hosts \
            its App Store simulator there.
            """)
    var port: Int?
    @OptionGroup var app: AppOption

    /// Runs `body` on the server's parts (assembled as `serve` assembles them, with a simulator reached over HTTP at
    /// the running server) with the ledger migrated, and closes the ledger afterwards, also on errors. `catalog`
    /// overrides the configuration's catalog file.
    func withServer<T: Sendable>(
        label: String, catalog: String? = nil, _ body: @Sendable @escaping (PurserAssembly) async throws -> T
    ) async throws -> T {
        var logger = Logger(label: label)
        logger.logLevel = .warning
        var flags: [AbsoluteConfigKey: ConfigContent] = [:]
        flags["dataDirectory"] = dataDirectory.map(ConfigContent.string)
        flags["catalogFile"] = catalog.map(ConfigContent.string)
        flags["port"] = port.map(ConfigContent.int)
        let resolved = try app.resolved(await ServerConfiguration.resolveForCommand(file: config, flags: flags))
        let settings = resolved.settings
        let host = settings.host == "0.0.0.0" ? "127.0.0.1" : settings.host
        let server = URL(string: "http://\(host):\(settings.port)")!
        let assembly = try await PurserAssembly.open(
            resolved,
            appStore: { try await .configured($0.settings, catalog: $0.catalog, simulatorPlacement: .remote(server)) },
            logger: logger)
        return try await assembly.store.whileRunning {
            try await assembly.store.migrate()
            return try await body(assembly)
        }
    }
}

/// `--operator`: who does what the audit log records (a grant, a replay).
struct OperatorOption: ParsableArguments {
    @Option(
        name: .customLong("operator"), help: "Who does it (default: $USER, else \"operator\"); kept in the audit log.")
    var given: String?

    /// The name the audit log keeps.
    var name: String { given ?? ProcessInfo.processInfo.environment["USER"] ?? "operator" }
}
