import ArgumentParser
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
            discussion: "Settings come from --config (JSON), then the flags below override them. See README.md.")

        @Option(help: "A JSON configuration file.") var config: String?
        @Option(help: "Address to listen on (default 127.0.0.1).") var host: String?
        @Option(help: "Port to listen on (default 8080).") var port: Int?
        @Option(name: .customLong("data-dir"), help: "Directory for the ledger and the simulator (default ./data).")
        var dataDirectory: String?
        @Option(help: "The product catalog file (JSON).") var catalog: String?
        @Option(name: .customLong("bundle-id"), help: "The app's bundle id.") var bundleID: String?
        @Option(
            name: .customLong("appstore"), help: "apple, or simulator to run and trust the built-in App Store simulator.")
        var appStore: String?
        @Option(help: "jwt (default), or development to trust the X-Purser-User header.") var auth: String?
        @Option(name: .customLong("log-level"), help: "trace, debug, info (default), notice, warning, error.")
        var logLevel: String = "info"

        func run() async throws {
            var settings =
                try config.map { try ServerConfiguration.load(file: URL(fileURLWithPath: $0)) } ?? ServerConfiguration()
            if let host { settings.host = host }
            if let port { settings.port = port }
            if let dataDirectory { settings.dataDirectory = dataDirectory }
            if let catalog { settings.catalogFile = catalog }
            if let bundleID { settings.bundleId = bundleID }
            if let appStore {
                guard let mode = ServerConfiguration.AppStoreMode(rawValue: appStore) else {
                    throw ValidationError("--appstore must be apple or simulator")
                }
                settings.appStore = mode
            }
            if let auth {
                guard let mode = ServerConfiguration.Auth.Mode(rawValue: auth) else {
                    throw ValidationError("--auth must be jwt or development")
                }
                settings.auth.mode = mode
            }
            settings.applyEnvironmentSecrets()
            var logger = Logger(label: "purser")
            logger.logLevel = Logger.Level(rawValue: logLevel) ?? .info
            let assembly = try await PurserAssembly.open(settings, appStore: { try await .configured($0) },
                                                         logger: logger)
            try await assembly.application().runService()
        }
    }
}

extension ServerConfiguration {
    /// The secrets the environment overrides: `PURSER_JWT_SECRET`, `PURSER_APPSTORE_SHARED_SECRET`,
    /// `PURSER_ADMIN_TOKEN`.
    mutating func applyEnvironmentSecrets(_ environment: [String: String] = ProcessInfo.processInfo.environment) {
        if let secret = environment["PURSER_JWT_SECRET"] { auth.jwt.secret = secret }
        if let secret = environment["PURSER_APPSTORE_SHARED_SECRET"] { sharedSecret = secret }
        if let token = environment["PURSER_ADMIN_TOKEN"] { admin.token = token }
    }
}
