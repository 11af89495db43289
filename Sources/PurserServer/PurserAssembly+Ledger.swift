import PurserStorage

extension PurserAssembly {
    /// Migrates this app's ledger and checks it is this app's: a ledger first started for another bundle id (apps
    /// listed in another order, a changed `bundleId`, another app's backup copied in its place) would mix two games'
    /// money, so the server refuses to start, naming the fix that fits (`ledgerRefusal(owner:)`).
    func prepareLedger() async throws {
        do {
            try await store.migrate()
            let app = configuration.bundleId
            store.outbox.adopt(bundleID: app)
            if let owner = try await store.recordedApp() {
                guard owner == app else { throw ledgerRefusal(owner: owner) }
            } else {
                try await store.recordApp(app, now: now())
            }
        } catch let error as StorageError where error.code == .unavailable {
            throw ConfigurationError("the ledger cannot be reached at start: \(error.message)")
        }
    }

    /// Why `serve` refuses this app's ledger, which records `owner`, and what to do about it:
    /// - the first app's ledger, recording another app of `apps`: the apps were listed in another order, and the
    ///   first app keeps the ledger a single-app Purser had;
    /// - another app's own ledger (`apps/BUNDLE_ID.sqlite`, the schema `app_BUNDLE_ID`), or an owner this
    ///   configuration does not serve: another ledger was put in its place, or the app's bundle id changed; restore
    ///   the app's own backup, or re-label the ledger on purpose (`purser restore --as-app`).
    func ledgerRefusal(owner: String) -> ConfigurationError {
        let app = configuration.bundleId
        let sqlite = configuration.database.url == nil
        let place =
            sqlite
            ? configuration.sqliteLedgerPath
            : configuration.ledgerApp.map { "schema \(ServerConfiguration.postgresSchema(forApp: $0))" }
                ?? "the database's default schema"
        let found = "the ledger at \(place) belongs to the app \(owner), not \(app)"
        let served = configuration.servedApps.map(\.bundleId)
        if configuration.ledgerApp == nil, served.count > 1, served.contains(owner) {
            return ConfigurationError(
                "\(found): the first app of apps keeps the ledger a single-app Purser had, so list \(owner) first")
        }
        let appOption = configuration.apps.isEmpty ? "" : " --app \(app)"
        let fix =
            sqlite
            ? "restore a backup of \(app)'s own ledger there (purser restore\(appOption) --from BACKUP); if this "
                + "ledger is \(app)'s under a bundle id that changed, re-label it on purpose: purser backup"
                + "\(appOption) --to COPY, then purser restore\(appOption) --from COPY --as-app"
            : "restore a dump of \(app)'s own ledger there; if this ledger is \(app)'s under a bundle id that "
                + "changed, set its app on purpose in that schema: UPDATE reconciliation_cursors SET value = "
                + "'\(app)' WHERE name = '\(PostgresLedgerStore.appCursorName)'"
        let elsewhere =
            served.contains(owner)
            ? ""
            : configuration.apps.isEmpty
                ? " (if this server is \(owner)'s, give bundleId \(owner))"
                : " (this configuration serves no app \(owner))"
        return ConfigurationError("\(found)\(elsewhere): \(fix)")
    }
}
