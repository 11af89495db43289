import Foundation

extension LedgerStore {
    /// The app (its bundle id) this ledger belongs to, as `serve` recorded it at the ledger's first start; `nil`
    /// before that. A ledger never serves another app: `serve` refuses to start on it and `purser restore` refuses to
    /// put it in another app's place.
    public func recordedApp() async throws -> String? {
        try await cursor(Self.appCursorName)
    }

    /// Records `app` as the app this ledger belongs to (at its first start, or a deliberate re-label).
    public func recordApp(_ app: String, now: Date) async throws {
        try await setCursor(Self.appCursorName, to: app, now: now)
    }

    /// The cursor (a row of `reconciliation_cursors`) under which a ledger records its app.
    public static var appCursorName: String { "ledger.app" }
}
