import ArgumentParser
import Configuration
import Foundation
import Hummingbird
import Logging
import PurserServer
import ServiceLifecycle

extension Purser {
    /// `purser serve`: the Purser HTTP server. It only reads the configuration; `PurserAssembly` builds the server.
    struct Serve: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Run the Purser server.",
            discussion: "Settings come from the flags below, then PURSER_* environment variables, then --config "
                + "(JSON). See the server guide's Configuration article (Sources/PurserServer/PurserServer.docc).")

        @Option(help: "A JSON configuration file.") var config: String?
        @Option(help: "Address to listen on (default 127.0.0.1).") var host: String?
        @Option(help: "Port to listen on (default 8080).") var port: Int?
        @Option(name: .customLong("data-dir"), help: "Directory for the ledger and the simulator (default ./data).")
        var dataDirectory: String?
        @Option(help: "The product catalog file (JSON).") var catalog: String?
        @Option(name: .customLong("bundle-id"), help: "The app's bundle id.") var bundleID: String?
        @Option(
            name: .customLong("appstore"),
            help: "apple, or simulator to run and trust the built-in App Store simulator.")
        var appStore: String?
        @Option(help: "jwt (default), or development to trust the X-Purser-User header.") var auth: String?
        @Option(
            name: .customLong("database-url"),
            help: ArgumentHelp(
                "PostgreSQL for the ledger, postgres://user@host:port/db (default: SQLite in the data directory). "
                    + "Put the password in PURSER_DATABASE_PASSWORD, not here: a command line is visible to others."))
        var databaseURL: String?
        @Option(name: .customLong("log-level"), help: "trace, debug, info (default), notice, warning, error.")
        var logLevel: String = "info"
        @Option(
            name: .customLong("log-format"),
            help: "text (default) or json: one JSON object per line on standard error (log.format).")
        var logFormat: String?

        func validate() throws {
            if let appStore, ServerConfiguration.AppStoreMode(rawValue: appStore) == nil {
                throw ValidationError("--appstore must be apple or simulator")
            }
            if let auth, ServerConfiguration.Auth.Mode(rawValue: auth) == nil {
                throw ValidationError("--auth must be jwt or development")
            }
            if let logFormat, LogFormat(rawValue: logFormat) == nil {
                throw ValidationError("--log-format must be text or json")
            }
        }

        func run() async throws {
            var flags: [AbsoluteConfigKey: ConfigContent] = [:]
            flags["host"] = host.map(ConfigContent.string)
            flags["port"] = port.map(ConfigContent.int)
            flags["dataDirectory"] = dataDirectory.map(ConfigContent.string)
            flags["catalogFile"] = catalog.map(ConfigContent.string)
            flags["bundleId"] = bundleID.map(ConfigContent.string)
            flags["appStore"] = appStore.map(ConfigContent.string)
            flags["auth.mode"] = auth.map(ConfigContent.string)
            flags["database.url"] = databaseURL.map(ConfigContent.string)
            flags["log.format"] = logFormat.map(ConfigContent.string)
            // Before the first logger: every line, the configuration's own reading included, is in the format.
            await ServerConfiguration.logFormat(file: config.map(URL.init(fileURLWithPath:)), flags: flags)
                .bootstrap(metadataProvider: PurserTracing.loggingMetadata)
            var logger = Logger(label: "purser")
            logger.logLevel = Logger.Level(rawValue: logLevel) ?? .info
            let resolved = try await ServerConfiguration.resolveForCommand(file: config, flags: flags, logger: logger)
            let studio = try await PurserStudio.open(
                resolved, appStores: { try await AppStoreAccess.configured($0) }, logger: logger)
            let tracing = try PurserTracing.bootstrap(resolved.configuration.tracing, logger: logger)
            do {
                try await studio.runService(studio.application(), alongside: tracing.map { [$0] } ?? [])
            } catch {
                throw PortClash.configurationError(for: error, settings: resolved.configuration) ?? error
            }
        }
    }
}
