import AppStoreVerification
import PurserCore

extension AppStoreAccess {
    /// How each app of a resolved configuration reaches the App Store, in `apps`' order: Apple's endpoints or an
    /// external simulator per app (each with its own `bid` and shared secret), or one simulator hosted by this
    /// server that sells for every app (it signs each product of every app's catalog with its type).
    public static func configured(
        _ resolved: ResolvedConfiguration, simulatorPlacement: SimulatorPlacement = .hosted(notifications: .sent)
    ) async throws -> [AppStoreAccess] {
        try await configured(
            settings: resolved.apps.map(\.settings), catalogs: resolved.apps.map(\.catalog),
            simulatorPlacement: simulatorPlacement)
    }

    /// How each app of `configuration` reaches the App Store (`servedApps`' order, `catalogs` theirs), as
    /// `configured(_:simulatorPlacement:)` makes it for a resolved configuration.
    public static func configured(
        apps configuration: ServerConfiguration, catalogs: [ProductCatalog],
        simulatorPlacement: SimulatorPlacement = .hosted(notifications: .sent)
    ) async throws -> [AppStoreAccess] {
        try await configured(
            settings: configuration.servedApps.map(configuration.settings(for:)), catalogs: catalogs,
            simulatorPlacement: simulatorPlacement)
    }

    private static func configured(
        settings: [ServerConfiguration], catalogs: [ProductCatalog], simulatorPlacement: SimulatorPlacement
    ) async throws -> [AppStoreAccess] {
        let everyProduct = ProductCatalog(catalogs.reversed().flatMap { Array($0.products.values) })
        let first = try await configured(settings[0], catalog: everyProduct, simulatorPlacement: simulatorPlacement)
        var accesses = [first]
        for app in settings.dropFirst() {
            if first.hosted != nil {
                accesses.append(try first.serving(app))
            } else {
                accesses.append(
                    try await configured(app, catalog: everyProduct, simulatorPlacement: simulatorPlacement))
            }
        }
        return accesses
    }

    /// The hosted simulator's access as another app uses it: the same roots and App Store, its own `bid` and shared
    /// secret, and nothing hosted a second time.
    public func serving(_ app: ServerConfiguration) throws -> AppStoreAccess {
        var access = self
        access.serverAPI = try serverAPI?.acting(forBundle: app.bundleId)
        access.sandboxServerAPI = try sandboxServerAPI?.acting(forBundle: app.bundleId)
        access.receipts = receipts.withSharedSecret(app.sharedSecret)
        access.hosted = nil
        return access
    }
}
