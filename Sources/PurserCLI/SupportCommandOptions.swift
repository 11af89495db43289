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

    /// Runs `body` on the server's parts with the ledger migrated, and closes the ledger afterwards, also on errors.
    func withServer<T>(label: String, _ body: (ServerBootstrap) async throws -> T) async throws -> T {
        var logger = Logger(label: label)
        logger.logLevel = .warning
        let (_, bootstrap) = try await self.bootstrap(logger: logger)
        let store = bootstrap.dependencies.store
        do {
            try await store.migrate()
            let result = try await body(bootstrap)
            try await store.close()
            return result
        } catch {
            try? await store.close()
            throw error
        }
    }

    /// The configuration, and the bootstrap with the simulator reached over HTTP at the running server.
    func bootstrap(logger: Logger) async throws -> (ServerConfiguration, ServerBootstrap) {
        guard #available(macOS 15, iOS 18, macCatalyst 18, tvOS 18, watchOS 11, visionOS 2, *) else {
            throw ValidationError("purser needs macOS 15 or later")
        }
        var flags: [AbsoluteConfigKey: ConfigContent] = [:]
        flags["dataDirectory"] = dataDirectory.map(ConfigContent.string)
        flags["catalogFile"] = catalog.map(ConfigContent.string)
        flags["port"] = port.map(ConfigContent.int)
        let settings = try await ServerConfiguration.load(file: config.map(URL.init(fileURLWithPath:)), flags: flags)
        let host = settings.host == "0.0.0.0" ? "127.0.0.1" : settings.host
        do {
            let bootstrap = try await ServerBootstrap.make(
                settings, logger: logger, serverAPIBaseURL: URL(string: "http://\(host):\(settings.port)"))
            return (settings, bootstrap)
        } catch let error as ConfigurationError {
            throw ValidationError(error.description)
        }
    }
}
