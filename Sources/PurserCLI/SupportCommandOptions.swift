import ArgumentParser
import Configuration
import Foundation
import Logging
import PurserServer
import PurserStorage

/// Options shared by the commands that work on a server's ledger and App Store credentials from outside
/// (`reconcile`, `lookup`, `grant`): the same configuration file as `serve`.
struct SupportCommandOptions: ParsableArguments {
    @Option(help: "The server's JSON configuration file.") var config: String?
    @Option(name: .customLong("data-dir"), help: "The server's data directory (default from the configuration).")
    var dataDirectory: String?
    @Option(help: "The product catalog file (default from the configuration).") var catalog: String?
    @Option(help: "The running server's port, where its App Store simulator answers (default from the configuration).")
    var port: Int?

    /// Runs `body` on the server's parts (assembled as `serve` assembles them, with a simulator reached over HTTP at
    /// the running server) with the ledger migrated, and closes the ledger afterwards, also on errors.
    func withServer<T: Sendable>(
        label: String, _ body: @Sendable @escaping (PurserAssembly) async throws -> T
    ) async throws -> T {
        try await Self.withServer(
            label: label, config: config, dataDirectory: dataDirectory, catalog: catalog, port: port, body)
    }

    /// `withServer` for commands with fewer options (`LedgerCommandOptions`): what they do not set comes from the
    /// configuration.
    static func withServer<T: Sendable>(
        label: String, config: String?, dataDirectory: String?, catalog: String? = nil, port: Int? = nil,
        _ body: @Sendable @escaping (PurserAssembly) async throws -> T
    ) async throws -> T {
        var logger = Logger(label: label)
        logger.logLevel = .warning
        var flags: [AbsoluteConfigKey: ConfigContent] = [:]
        flags["dataDirectory"] = dataDirectory.map(ConfigContent.string)
        flags["catalogFile"] = catalog.map(ConfigContent.string)
        flags["port"] = port.map(ConfigContent.int)
        let settings = try await ServerConfiguration.loadForCommand(file: config, flags: flags)
        let host = settings.host == "0.0.0.0" ? "127.0.0.1" : settings.host
        let server = URL(string: "http://\(host):\(settings.port)")!
        let assembly = try await PurserAssembly.open(
            settings, appStore: { try await .configured($0, simulatorPlacement: .remote(server)) }, logger: logger)
        return try await assembly.store.whileRunning {
            try await assembly.store.migrate()
            return try await body(assembly)
        }
    }
}
