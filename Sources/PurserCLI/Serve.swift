import AppStoreSimulator
import ArgumentParser
import Configuration
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
            discussion: "Settings come from the flags below, then PURSER_* environment variables, then --config "
                + "(JSON). See README.md.")

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
            guard #available(macOS 15, iOS 18, macCatalyst 18, tvOS 18, watchOS 11, visionOS 2, *) else {
                throw ValidationError("purser serve needs macOS 15 or later")
            }
            var flags: [AbsoluteConfigKey: ConfigContent] = [:]
            flags["host"] = host.map(ConfigContent.string)
            flags["port"] = port.map(ConfigContent.int)
            flags["dataDirectory"] = dataDirectory.map(ConfigContent.string)
            flags["catalogFile"] = catalog.map(ConfigContent.string)
            flags["bundleId"] = bundleID.map(ConfigContent.string)
            flags["appStore"] = appStore.map(ConfigContent.string)
            flags["auth.mode"] = auth.map(ConfigContent.string)
            var logger = Logger(label: "purser")
            logger.logLevel = Logger.Level(rawValue: logLevel) ?? .info
            let settings = try await ServerConfiguration.load(
                file: config.map(URL.init(fileURLWithPath:)), flags: flags, logger: logger)
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
