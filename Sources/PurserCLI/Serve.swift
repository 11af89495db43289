import AppStoreSimulator
import ArgumentParser
import Foundation
import Hummingbird
import Logging
import NIOCore
import PurserServer
import ServiceLifecycle

extension Purser {
    /// `purser serve`: the Purser HTTP server on its embedded SQLite ledger.
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
        @Option(name: .customLong("appstore"), help: "apple, or simulator to run and trust the built-in App Store simulator.")
        var appStore: String?
        @Option(help: "jwt (default), or development to trust the X-Purser-User header.") var auth: String?
        @Option(name: .customLong("log-level"), help: "trace, debug, info (default), notice, warning, error.")
        var logLevel: String = "info"

        func run() async throws {
            var settings = try config.map { try ServerConfiguration.load(file: URL(fileURLWithPath: $0)) } ?? ServerConfiguration()
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
            var logger = Logger(label: "purser")
            logger.logLevel = Logger.Level(rawValue: logLevel) ?? .info
            let bootstrap: ServerBootstrap
            do {
                bootstrap = try await ServerBootstrap.make(settings, logger: logger)
            } catch let error as ConfigurationError {
                throw ValidationError(error.description)
            }
            let appStore = bootstrap.appStore
            let loopback = bootstrap.loopback
            var services: [any Service] = appStore.map { [NotificationSenderService(store: $0)] } ?? []
            if let reconciler = bootstrap.reconciler, settings.reconciliation.intervalSeconds > 0 {
                services.append(ReconciliationService(
                    reconciler: reconciler, interval: .milliseconds(Int64(settings.reconciliation.intervalSeconds * 1000)),
                    logger: logger))
            }
            let app = PurserApplication.build(
                configuration: .init(address: .hostname(settings.host, port: settings.port), serverName: "Purser"),
                dependencies: bootstrap.dependencies, logger: logger,
                onServerRunning: { channel in
                    // The simulator talks to this very server, on the port it really got.
                    guard let appStore, let port = channel.localAddress?.port else { return }
                    loopback?.listening(on: port)
                    await appStore.deliverNotifications(
                        to: URL(string: "http://127.0.0.1:\(port)/v1/appstore/notifications")!, transport: HTTPClientTransport())
                },
                services: services,
                addRoutes: { router in
                    bootstrap.simulator?.addRoutes(to: router)
                    if let api = bootstrap.serverAPI { ServerAPIRoutes(api: api).addRoutes(to: router) }
                })
            try await app.runService()
        }
    }
}
