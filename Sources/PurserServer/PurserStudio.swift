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

    /// Builds every app of a resolved configuration (`ServerConfiguration.resolve`) on ledgers already opened
    /// (`ledgers[i]` for `resolved.apps[i]`, each at its `ledger`) with their App Stores, checking nothing again: the
    /// first app's API keys serve every app. `webhookSeed` seeds every app's webhook retries (a chaos run's seed).
    public static func assemble(
        _ resolved: ResolvedConfiguration, ledgers: [any LedgerStore], appStores: [AppStoreAccess], logger: Logger,
        now: @escaping @Sendable () -> Date = { Date() }, webhookSeed: UInt64? = nil
    ) -> PurserStudio {
        var apps: [PurserAssembly] = []
        for (index, app) in resolved.apps.enumerated() {
            var appLogger = logger
            if !resolved.configuration.apps.isEmpty { appLogger[metadataKey: "app"] = "\(app.bundleId)" }
            apps.append(
                PurserAssembly(
                    app: app, store: ledgers[index], appStore: appStores[index], logger: appLogger, now: now,
                    webhookSeed: webhookSeed, keys: apps.first?.apiKeys))
        }
        return PurserStudio(apps: apps)
    }

    /// Builds every app of `configuration` (`servedApps`), resolved here with `catalogs` and `appStores` in place of
    /// its catalog files and App Store settings (a studio built in code: chaos, tests), on ledgers already opened.
    /// - Throws: `ConfigurationError` with every problem of the configuration (`ServerConfiguration.resolve`).
    public static func assemble(
        _ configuration: ServerConfiguration, catalogs: [ProductCatalog], ledgers: [any LedgerStore],
        appStores: [AppStoreAccess], logger: Logger, now: @escaping @Sendable () -> Date = { Date() },
        webhookSeed: UInt64? = nil
    ) throws(ConfigurationError) -> PurserStudio {
        let resolved = try configuration.resolve(.init(catalogs: catalogs, appStores: appStores))
        return assemble(
            resolved, ledgers: ledgers, appStores: appStores, logger: logger, now: now, webhookSeed: webhookSeed)
    }
}
