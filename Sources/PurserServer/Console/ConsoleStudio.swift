import Foundation
import PurserStorage

/// The apps of a studio as its console sees them (`PurserStudio`): each app's ledger and support service, for the
/// app switcher, the search over every app an operator may see, and the roles an admin gives per app. Every app's
/// router serves the console; `AppDispatchMiddleware` sends `/console` to the app the `purser_console_app` cookie
/// names (set by `GET /console/apps/{bundleId}`; without it, the first app).
struct ConsoleStudio: Sendable {
    /// One app: its bundle id, its ledger, and its support service (Apple's order lookups with its `bid`).
    struct App: Sendable {
        let bundleId: String
        let store: any LedgerStore
        let support: SupportService
    }

    /// Every app, in `servedApps`' order; the first holds the operators.
    let apps: [App]

    /// The cookie that names the app the console's pages are of.
    static let cookieName = "purser_console_app"

    /// Whether the studio serves several apps: then every page draws the switcher and the search names each hit's app.
    var several: Bool { apps.count > 1 }

    var bundleIds: [String] { apps.map(\.bundleId) }

    /// The apps `person` may see (a role in each), in the studio's order; every app for the admin token (`nil`).
    func visible(to person: ConsoleOperator?) -> [String] {
        guard let person else { return bundleIds }
        return bundleIds.filter { person.roles[$0] != nil }
    }

    /// The switcher's address for `app`, then back to `back` (a console path) in that app.
    static func switchPath(_ app: String, back: String? = nil) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~/")
        let query = back.flatMap { $0.addingPercentEncoding(withAllowedCharacters: allowed) }.map { "?back=\($0)" }
        return "/console/apps/\(app)" + (query ?? "")
    }

    /// Whether `path` is a console page to go back to (not another site's: no `//`, no scheme).
    static func isConsolePath(_ path: String) -> Bool {
        path.hasPrefix("/console/") && !path.hasPrefix("//") && !path.contains("\\")
    }
}
