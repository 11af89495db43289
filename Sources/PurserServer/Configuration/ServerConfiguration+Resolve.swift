import Configuration
import Foundation
import Logging
import PurserCore
import X509

extension ServerConfiguration {
    /// Reads the settings as `load(file:environment:flags:logger:)` does and resolves them (`resolve(catalogs:)`):
    /// the one step `serve` takes before it opens anything, and the one `purser config check` reports on.
    /// - Throws: `ConfigurationError` naming a file that cannot be read as a JSON object, or listing every problem at
    ///   once: each key that could not be read (unknown, or a value of the wrong type), then every problem of the
    ///   values.
    public static func resolve(
        file: URL?, environment: [String: String] = ProcessInfo.processInfo.environment,
        flags: [AbsoluteConfigKey: ConfigContent] = [:], logger: Logger? = nil
    ) async throws -> ResolvedConfiguration {
        try await read(file: file, environment: environment, flags: flags, logger: logger).resolve()
    }

    /// Runs every check of these settings, each once, and returns what each app needs to run, or every problem found.
    /// Nothing is opened and no one is called (ports and the database itself are tried only by `serve`).
    /// - Parameter catalogs: each served app's catalog (`servedApps`' order) in place of its `catalogFile`, for a
    ///   server built in code (chaos, bench, tests); `nil` reads the files.
    /// - Throws: `ConfigurationError` with every problem, each naming its key or file; an app's are prefixed
    ///   `apps.N (BUNDLE_ID): ` when the configuration lists `apps`.
    public func resolve(catalogs: [ProductCatalog]? = nil) throws(ConfigurationError) -> ResolvedConfiguration {
        try resolve(Resolution(catalogs: catalogs))
    }

    /// How `resolve(_:)` runs.
    struct Resolution {
        /// Problems found before resolving (reading's): listed first.
        var after: [String] = []
        /// Each app's catalog in place of its `catalogFile`.
        var catalogs: [ProductCatalog]?
        /// Each app's App Store, already built (a server assembled in code): its Server API decides the receipts'
        /// default, and Apple's roots and key are not read again.
        var appStores: [AppStoreAccess]?
        /// Whether these settings are one app's already (`settings(for:)`, as `PurserAssembly` takes them), not a
        /// studio to resolve app by app.
        var oneApp = false
    }

    /// Every check, each problem kept: the studio's first, then each app's.
    func resolve(_ resolution: Resolution) throws(ConfigurationError) -> ResolvedConfiguration {
        var problems = ProblemList(resolution.after)
        problems.check { try checkApps() }
        let operators = problems.value { try console.checkedOperators() }
        problems.check { try console.check() }
        let proxies = problems.value { try TrustedProxies(http.trustedProxies) }
        problems.check { try http.check() }
        problems.check { try tracing.check() }
        let authenticator = problems.value { try checkedAuthenticator() }
        problems.check { try retention.check() }
        problems.check { try backup.check(postgres: database.url != nil) }
        problems.check { try webhooks.checkPacing() }
        let ledger = problems.value { try ledgerLocation() }
        if appStore == .simulator {
            problems.check { _ = try simulatorURL() }
            problems.check { _ = try simulatorStoreKitCatalog() }
        }
        let served = resolution.oneApp ? [App(topLevel: self)] : servedApps
        precondition(resolution.catalogs.map { $0.count == served.count } ?? true, "one catalog per app")
        precondition(resolution.appStores.map { $0.count == served.count } ?? true, "one App Store per app")
        var parts: [AppParts] = []
        for (index, app) in served.enumerated() {
            let appSettings = resolution.oneApp ? self : settings(for: app)
            let prefix = apps.isEmpty || resolution.oneApp ? "" : "apps.\(index) (\(app.bundleId)): "
            let resolved = problems.value(prefix) {
                try appSettings.appParts(
                    catalog: resolution.catalogs?[index], appStore: resolution.appStores?[index],
                    webhookScope: app.webhookScope, ledger: ledger != nil)
            }
            if let resolved { parts.append(resolved) }
        }
        guard problems.isEmpty, let operators, let proxies, let authenticator, parts.count == served.count else {
            throw ConfigurationError(problems.items)
        }
        let studio = ResolvedConfiguration.Studio(
            consoleOperators: operators, trustedProxies: proxies, authenticator: authenticator)
        return ResolvedConfiguration(
            configuration: self,
            apps: parts.map {
                ResolvedApp(
                    settings: $0.settings, catalog: $0.catalog, webhookEndpoints: $0.endpoints, ledger: $0.ledger,
                    receiptVerification: $0.receipts, consumptionPolicy: $0.consumption, xcodeCertificate: $0.xcode,
                    studio: studio)
            })
    }

    /// One app's values, checked.
    struct AppParts {
        var settings: ServerConfiguration
        var catalog: ProductCatalog
        var endpoints: [WebhookEndpoint]
        var ledger: LedgerLocation
        var receipts: ReceiptVerification
        var consumption: ConsumptionResponder.Policy
        var xcode: Certificate?
    }

    /// The values of one app's settings: its catalog (`catalog`, or its file), its webhook endpoints (named under
    /// `webhookScope` in messages), receipts, consumption answers, Xcode's certificate, Apple's roots and key (unless
    /// `appStore` is built already) and its ledger's location (when the studio's database URL is usable: `ledger`).
    /// - Throws: `ConfigurationError` with every problem of the app.
    func appParts(
        catalog given: ProductCatalog?, appStore: AppStoreAccess?, webhookScope: String, ledger usable: Bool
    ) throws(ConfigurationError) -> AppParts {
        var problems = ProblemList()
        let catalog = given ?? problems.value { try loadCatalog() }
        let endpoints = problems.value { try webhooks.checkedEndpoints(scope: webhookScope) }
        let serverAPI =
            appStore.map { $0.serverAPI != nil }
            ?? (self.appStore == .simulator
                || (appStoreServerAPI.issuerId != nil && appStoreServerAPI.keyId != nil
                    && appStoreServerAPI.privateKeyFile != nil))
        let receipts = problems.value { try receiptVerification(serverAPI: serverAPI) }
        let consumption = problems.value { try consumptionPolicy() }
        let xcode = problems.value { try xcodeCertificate() }
        if appStore == nil, self.appStore == .apple {
            problems.check { _ = try AppStoreAccess.apple(self) }
        }
        let ledger = usable ? problems.value { try ledgerLocation() } : nil
        guard problems.isEmpty, let catalog, let endpoints, let receipts, let consumption, let xcode, let ledger else {
            throw ConfigurationError(problems.items)
        }
        return AppParts(
            settings: self, catalog: catalog, endpoints: endpoints, ledger: ledger, receipts: receipts,
            consumption: consumption, xcode: xcode)
    }
}
