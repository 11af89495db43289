import Foundation
import Logging
import PurserCore
import PurserStorage

/// One Purser for a whole studio: an assembled server per app (`PurserAssembly`, each with its own ledger, catalog,
/// App Store access, webhooks and workers) behind one HTTP server (`application(…)`), which sends each request to its
/// app (`X-Purser-App`; Apple's notifications by the bundle they name). A single-app server is a studio of one.
///
/// The first app keeps the ledger a single-app Purser always had; it also holds the studio's API keys and console
/// operators. Every other app has a ledger of its own (`ServerConfiguration.openLedger`), so no credit, revoke or
/// event of one game can land in another's.
public struct PurserStudio: Sendable {
    /// Every app, in `ServerConfiguration.servedApps`' order; never empty.
    public let apps: [PurserAssembly]
    /// Whether a stop has begun draining this studio's server (`runService`); `/ready` reads it.
    let drain = ReplicaDrain()

    public init(apps: [PurserAssembly]) {
        precondition(!apps.isEmpty, "a studio serves at least one app")
        self.apps = apps
    }

    /// The first app: its ledger holds the API keys and the console's operators.
    public var home: PurserAssembly { apps[0] }

    /// Builds every app of `configuration` (`servedApps`) on ledgers already opened (`ledgers[i]` for app `i`):
    /// the first app's API keys serve every app. `webhookSeed` seeds every app's webhook retries (a chaos run's seed).
    /// - Throws: `ConfigurationError` for a configuration that cannot be used (`checkApps`, or an app's own).
    public static func assemble(
        _ configuration: ServerConfiguration, catalogs: [ProductCatalog], ledgers: [any LedgerStore],
        appStores: [AppStoreAccess], logger: Logger, now: @escaping @Sendable () -> Date = { Date() },
        webhookSeed: UInt64? = nil
    ) throws(ConfigurationError) -> PurserStudio {
        try configuration.checkApps()
        var apps: [PurserAssembly] = []
        for (index, app) in configuration.servedApps.enumerated() {
            var appLogger = logger
            if !configuration.apps.isEmpty { appLogger[metadataKey: "purser.app"] = "\(app.bundleId)" }
            apps.append(
                try PurserAssembly(
                    configuration: configuration.settings(for: app), catalog: catalogs[index], store: ledgers[index],
                    appStore: appStores[index], logger: appLogger, now: now, webhookSeed: webhookSeed,
                    keys: apps.first?.apiKeys))
        }
        return PurserStudio(apps: apps)
    }
}
