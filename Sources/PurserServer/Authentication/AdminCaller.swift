import Hummingbird
import PurserStorage

/// Who is calling the admin API: an API key from the ledger, or the legacy `admin.token`, which holds every scope
/// for every app. Routes ask it for their scope and app (`authorize`); audit records name its `actor`.
struct AdminCaller: Sendable {
    /// The key's name; `admin.token` for the legacy token.
    let key: String
    let scopes: Set<APIKeyScope>
    /// The apps the key may act on; `nil`: every app.
    let apps: [String]?
    /// What audit records name: `key:NAME` (`OPERATOR via key:NAME` when the caller sends `X-Purser-Operator`), or,
    /// for the legacy token, the `X-Purser-Operator` header or `admin`, as before keys.
    let actor: String
    let isLegacy: Bool

    /// The legacy token's caller: every scope, every app.
    static func legacy(operator name: String?) -> AdminCaller {
        AdminCaller(key: "admin.token", scopes: [.all], apps: nil, actor: name ?? "admin", isLegacy: true)
    }

    /// A key's caller, with the operator the request names, if any.
    init(key: APIKey, operator name: String?) {
        self.init(
            key: key.name, scopes: Set(key.scopes.compactMap(APIKeyScope.init(rawValue:))), apps: key.apps,
            actor: name.map { "\($0) via key:\(key.name)" } ?? "key:\(key.name)", isLegacy: false)
    }

    private init(key: String, scopes: Set<APIKeyScope>, apps: [String]?, actor: String, isLegacy: Bool) {
        self.key = key
        self.scopes = scopes
        self.apps = apps
        self.actor = actor
        self.isLegacy = isLegacy
    }

    /// Whether the caller holds `scope` (`*` holds every scope).
    func holds(_ scope: APIKeyScope) -> Bool { scopes.contains(.all) || scopes.contains(scope) }

    /// Whether the caller may act on `app`.
    func mayAct(on app: String) -> Bool { apps.map { $0.contains(app) } ?? true }

    /// Whether the caller may act on every app of `others` (`nil`: every app, which only a caller of every app
    /// covers): what a key it makes, reads or revokes may be limited to.
    func covers(_ others: [String]?) -> Bool {
        guard let apps else { return true }
        return others.map { $0.allSatisfy(apps.contains) } ?? false
    }

    /// Lets a route of `app` (`nil`: a route of no app, such as the keys') and `scope` (`nil`: the app alone) go on:
    /// a key of other apps gets 404 as if nothing were there, so it cannot learn what another app holds; a key
    /// without the scope, 403.
    func authorize(_ scope: APIKeyScope?, app: String?) throws(ServiceError) {
        if let app, !mayAct(on: app) { throw ServiceError(.notFound, "no such resource") }
        guard let scope else { return }
        guard holds(scope) else {
            throw ServiceError(.forbiddenScope, "the key \(key) does not hold the scope \(scope.rawValue)")
        }
    }

    /// The cause a wallet change records: `admin` for the legacy token, as before keys; `admin by ACTOR` for a key.
    var walletCause: String { isLegacy ? "admin" : "admin by \(actor)" }
}
