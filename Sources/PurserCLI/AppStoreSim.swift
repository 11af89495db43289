import AppStoreSimulator
import AppStoreSimulatorHTTP
import ArgumentParser
import Foundation
import Hummingbird
import Logging
import PurserServer
import ServiceLifecycle

extension Purser {
    /// `purser appstore-sim`: the App Store simulator on its own.
    struct AppStoreSim: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "appstore-sim",
            abstract: "Run the App Store simulator alone (control API under /simulator/v1).")

        @Option(help: "Address to listen on.") var host = "127.0.0.1"
        @Option(help: "Port to listen on.") var port = 8081
        @Option(name: .customLong("data-dir"), help: "Directory for the simulator's CA and purchases.")
        var dataDirectory = "data"
        @Option(name: .customLong("bundle-id"), help: "Bundle id used when a purchase names none.")
        var bundleID = "com.example.purser.demo"
        @Option(name: .customLong("app-apple-id"), help: "App Apple id put in production notifications.")
        var appAppleID: Int64?
        @Option(
            name: .customLong("notification-url"),
            help: "Where to send Notifications V2 (a Purser server's /v1/appstore/notifications); none: keep them.")
        var notificationURL: String?
        @Option(
            name: .customLong("storekit-config"),
            help: "An Xcode StoreKit configuration file (.storekit): sell only its products, at its prices.")
        var storeKitConfiguration: String?

        func validate() throws {
            if let notificationURL, URL(string: notificationURL)?.scheme?.hasPrefix("http") != true {
                throw ValidationError("--notification-url must be an http(s) URL")
            }
            if let storeKitConfiguration {
                do {
                    _ = try StoreKitConfiguration(contentsOf: URL(fileURLWithPath: storeKitConfiguration))
                } catch {
                    throw ValidationError("--storekit-config: \(error.message)")
                }
            }
        }

        func run() async throws {
            let logger = Logger(label: "purser.appstore-sim")
            let catalog = try storeKitConfiguration.map {
                try StoreKitConfiguration(contentsOf: URL(fileURLWithPath: $0))
            }
            let store = try SimulatedAppStore.persistent(
                in: URL(fileURLWithPath: dataDirectory).appendingPathComponent("appstore-sim"), bundleID: bundleID,
                appAppleID: appAppleID, catalog: catalog)
            let router = Router()
            SimulatorRoutes(store: store).addRoutes(to: router)
            ServerAPIRoutes(api: SimulatedServerAPI(store: store)).addRoutes(to: router)
            let rootPath = URL(fileURLWithPath: dataDirectory).appendingPathComponent("appstore-sim/ca/root.der").path
            logger.warning(
                "App Store simulator: signs with its own CA (root: \(rootPath)); trust it only in tests and demos.")
            if let catalog {
                logger.info("Selling the \(catalog.products.count) products of \(storeKitConfiguration ?? "")")
            }
            var services: [any Service] = []
            if let target = notificationURL.flatMap(URL.init(string:)) {
                await store.deliverNotifications(to: target, transport: HTTPClientTransport(recordsCalls: false))
                services.append(NotificationSenderService(store: store))
            }
            let app = Application(
                router: router,
                configuration: .init(
                    address: .hostname(host, port: port),
                    serverName: "Purser App Store Simulator"),
                services: services, logger: logger)
            try await app.runService()
        }
    }
}
