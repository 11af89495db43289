import Foundation
import PurserCore

// MARK: One-line setup

extension PurchaseCoordinator {
    /// The app's coordinator with the documented defaults, in one line:
    /// `try PurchaseCoordinator(server: url, store: StoreKit2Adapter())` (or `StoreKit1Adapter()` for StoreKit 1).
    /// It builds the `PurserAPIClient` for `server`, the purchase journal (in the Keychain where there is one, so it
    /// survives an uninstall; else `purchases.json` in `directory`) and the spend journal (`spends.json` in
    /// `directory`), which it creates. The hand-assembled `init(api:journal:store:spends:configuration:)` stays for
    /// anything else.
    /// - Parameters:
    ///   - server: the app's Purser server, e.g. `https://purser.example.com`.
    ///   - store: the StoreKit adapter, which chooses StoreKit 2 or 1 (`SimulatorStoreAdapter` in tests).
    ///   - app: the bundle id sent as `X-Purser-App`. The default, `Bundle.main.bundleIdentifier`, is nil in a
    ///     command-line tool or under `swift test` on Linux, where a server that serves several apps then refuses the
    ///     order: pass it there.
    ///   - directory: where the journals' files go; by default `Purser` in the app's Application Support.
    ///   - configuration: retries and recovery signals; the defaults suit an app.
    /// - Throws: `JournalStoreError` when a journal exists but cannot be read: don't sell without one.
    public init(
        server: URL, store: any StoreAdapter, app: String? = Bundle.main.bundleIdentifier, directory: URL? = nil,
        configuration: Configuration = Configuration()
    ) throws(JournalStoreError) {
        let directory =
            directory
            ?? FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask)[0]
            .appendingPathComponent("Purser", isDirectory: true)
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw JournalStoreError(code: "journal_unwritable", message: "cannot create \(directory.path): \(error)")
        }
        #if canImport(Security)
            let purchases: any JournalStore = KeychainJournalStore()
        #else
            let purchases: any JournalStore = FileJournalStore(url: directory.appendingPathComponent("purchases.json"))
        #endif
        self.init(
            api: PurserAPIClient(baseURL: server, app: app), journal: try PurchaseJournal(store: purchases),
            store: store, spends: try SpendJournal(url: directory.appendingPathComponent("spends.json")),
            configuration: configuration)
    }
}
