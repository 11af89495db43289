import Configuration
import Foundation
import PurserCore

extension ServerConfiguration {
    /// One app of a studio's deployment (`apps`): what differs between games. Each app has a ledger of its own
    /// (`PurserStudio`), so gold in one game is never gold in another; the first app keeps the ledger a single-app
    /// Purser always had, with the studio's API keys and console operators.
    public struct App: Sendable, Encodable {
        /// The app's bundle id: what its signed transactions name, what `X-Purser-App` names, the token's `bid`.
        public var bundleId: String
        public var appAppleId: Int64?
        public var environments: [AppStoreEnvironment]
        public var catalogFile: String?
        /// The app's shared secret for `verifyReceipt`. Secret.
        public var sharedSecret: String?
        /// Its App Store Server API key; issuer and key may be the top-level ones (one key signs for every app).
        public var appStoreServerAPI: ServerAPI
        public var consumption: Consumption
        public var refunds: Refunds
        /// Its game backend's webhook endpoints (`webhooks.endpoints`); pacing stays top-level.
        public var webhookEndpoints: [Webhooks.Endpoint]
        /// Whose keys set `webhookEndpoints`: `webhooks` when the app takes the top-level endpoints, `apps.N.webhooks`
        /// when it lists its own (messages name the key and the environment variable to set).
        var webhookScope = "webhooks"

        private enum CodingKeys: String, CodingKey {
            case bundleId, appAppleId, environments, catalogFile, sharedSecret, appStoreServerAPI, consumption
            case refunds, webhooks
        }

        private struct WebhookKeys: Encodable { var endpoints: [Webhooks.Endpoint] }

        /// Encoded with the configuration's own keys (`webhooks.endpoints`), so `effectiveJSON()` redacts secrets.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(bundleId, forKey: .bundleId)
            try container.encodeIfPresent(appAppleId, forKey: .appAppleId)
            try container.encode(environments, forKey: .environments)
            try container.encodeIfPresent(catalogFile, forKey: .catalogFile)
            try container.encodeIfPresent(sharedSecret, forKey: .sharedSecret)
            try container.encode(appStoreServerAPI, forKey: .appStoreServerAPI)
            try container.encode(consumption, forKey: .consumption)
            try container.encode(refunds, forKey: .refunds)
            try container.encode(WebhookKeys(endpoints: webhookEndpoints), forKey: .webhooks)
        }

        /// The app the top-level keys describe (a configuration without `apps`).
        init(topLevel configuration: ServerConfiguration) {
            bundleId = configuration.bundleId
            appAppleId = configuration.appAppleId
            environments = configuration.environments
            catalogFile = configuration.catalogFile
            sharedSecret = configuration.sharedSecret
            appStoreServerAPI = configuration.appStoreServerAPI
            consumption = configuration.consumption
            refunds = configuration.refunds
            webhookEndpoints = configuration.webhooks.endpoints
        }
    }

    /// The longest list of apps read: `apps.0` to `apps.99`.
    static let maxApps = 100

    /// The `apps` array, read by index (`apps.0.bundleId`, `PURSER_APPS_0_BUNDLE_ID`); an entry without `bundleId`
    /// ends the list. A key an entry leaves out takes `base`'s (top-level) value.
    static func apps(reader: ConfigReader, base: ServerConfiguration) -> [App] {
        var apps: [App] = []
        let top = App(topLevel: base)
        for index in 0..<maxApps {
            let entry = reader.scoped(to: ConfigKey(["apps", String(index)]))
            guard let bundleId = entry.string(forKey: "bundleId") else { break }
            var app = top
            app.bundleId = bundleId
            app.appAppleId = entry.int(forKey: "appAppleId").map(Int64.init) ?? top.appAppleId
            app.environments = entry.stringArray(
                forKey: "environments", as: AppStoreEnvironment.self, default: top.environments)
            app.catalogFile = entry.string(forKey: "catalogFile") ?? top.catalogFile
            app.sharedSecret = entry.string(forKey: "sharedSecret", isSecret: true) ?? top.sharedSecret
            app.appStoreServerAPI = ServerAPI(
                reader: entry.scoped(to: "appStoreServerAPI"), base: top.appStoreServerAPI)
            app.consumption = Consumption(reader: entry.scoped(to: "consumption"), base: top.consumption)
            app.refunds = Refunds(reader: entry.scoped(to: "refunds"), base: top.refunds)
            let endpoints = Webhooks.endpoints(reader: entry.scoped(to: "webhooks"))
            if !endpoints.isEmpty {
                app.webhookEndpoints = endpoints
                app.webhookScope = "apps.\(index).webhooks"
            }
            apps.append(app)
        }
        return apps
    }

    /// Whether a file key is an app's secret: `apps.N.sharedSecret`.
    static func isAppSecretKey(_ key: String) -> Bool {
        key.hasPrefix("apps.") && key.hasSuffix(".sharedSecret")
    }

    /// The apps this configuration serves: `apps`, or the one app of the top-level keys.
    public var servedApps: [App] { apps.isEmpty ? [App(topLevel: self)] : apps }

    /// Whose own ledger these settings open: the bundle id for a further app of `apps` (`settings(for:)`); nil for
    /// the first app and for the studio's configuration itself: the ledger a single-app Purser always had, which
    /// also holds the studio's keys and operators.
    public var ledgerApp: String? {
        apps.dropFirst().contains { $0.bundleId == bundleId } ? bundleId : nil
    }

    /// The settings one app runs with: these, with the app's keys in place of the top-level ones (`apps` stays, so
    /// `ledgerApp` knows whose ledger they open).
    public func settings(for app: App) -> ServerConfiguration {
        var settings = self
        settings.bundleId = app.bundleId
        settings.appAppleId = app.appAppleId
        settings.environments = app.environments
        settings.catalogFile = app.catalogFile
        settings.sharedSecret = app.sharedSecret
        settings.appStoreServerAPI = app.appStoreServerAPI
        settings.consumption = app.consumption
        settings.refunds = app.refunds
        settings.webhooks.endpoints = app.webhookEndpoints
        return settings
    }

    /// The settings of the app `bundleId` names (`--app` of the commands), or of the first app when it is `nil`.
    /// - Throws: `ConfigurationError` naming the apps served, for an app this configuration does not serve.
    public func settings(forApp bundleId: String?) throws(ConfigurationError) -> ServerConfiguration {
        settings(for: servedApps[try servedAppIndex(bundleId)])
    }

    /// The index in `servedApps` of the app `bundleId` names, or 0 (the first app) when it is `nil`.
    /// - Throws: `ConfigurationError` naming the apps served, for an app this configuration does not serve.
    func servedAppIndex(_ bundleId: String?) throws(ConfigurationError) -> Int {
        guard let bundleId else { return 0 }
        guard let index = servedApps.firstIndex(where: { $0.bundleId == bundleId }) else {
            let served = servedApps.map(\.bundleId).joined(separator: ", ")
            throw ConfigurationError("--app \(bundleId): this configuration serves \(served)")
        }
        return index
    }

    /// Throws for two apps with one bundle id, an entry whose bundle id is not one, or two apps whose PostgreSQL
    /// schemas would be one: every such problem.
    public func checkApps() throws(ConfigurationError) {
        var problems: [String] = []
        var seen: [String: String] = [:]
        for (index, app) in apps.enumerated() {
            guard !app.bundleId.isEmpty, !app.bundleId.hasPrefix("."),
                app.bundleId.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "-") })
            else {
                problems.append(
                    "apps.\(index).bundleId \(app.bundleId.debugDescription) is not a bundle id (letters, digits, . and -)"
                )
                continue
            }
            let schema = Self.postgresSchema(forApp: app.bundleId)
            if let other = seen[schema] {
                problems.append(
                    other == app.bundleId
                        ? "apps lists \(app.bundleId) twice"
                        : "apps \(other) and \(app.bundleId) would share the ledger schema \(schema): rename one")
            }
            seen[schema] = app.bundleId
        }
        guard problems.isEmpty else { throw ConfigurationError(problems) }
    }

    /// The PostgreSQL schema of a further app's ledger: `app_` and the bundle id, lower-cased, each character
    /// that is not a letter or digit as `_`, cut to 63.
    public static func postgresSchema(forApp bundleId: String) -> String {
        let name = bundleId.lowercased().map { ($0.isASCII && ($0.isLetter || $0.isNumber)) ? $0 : "_" }
        return String(("app_" + String(name)).prefix(63))
    }

    /// Where a further app's SQLite ledger lives: `apps/BUNDLE_ID.sqlite` in `dataDirectory`.
    public static func sqliteLedgerPath(dataDirectory: String, app bundleId: String) -> String {
        URL(fileURLWithPath: dataDirectory).appendingPathComponent("apps")
            .appendingPathComponent(bundleId + ".sqlite").path
    }
}
