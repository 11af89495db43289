import PurserCore

/// What an admin API key may do. Each `/admin/v1` route needs one scope; `*` holds them all.
public enum APIKeyScope: String, CaseIterable, Sendable {
    /// Lookups, search, wallet reads, webhook listings, a user's export.
    case ledgerRead = "ledger:read"
    /// Binding a transaction to a user (a grant), making good, erasing a user.
    case supportWrite = "support:write"
    /// Replaying a webhook event, testing the endpoints.
    case webhooksWrite = "webhooks:write"
    /// The game backend's wallet routes: spends, deposits, holds, captures, voids.
    case walletWrite = "wallet:write"
    /// Listing, creating and revoking keys.
    case keysAdmin = "keys:admin"
    /// Every scope, today's and any added later.
    case all = "*"

    /// The scopes in a comma- or space-separated list (`ledger:read,support:write`), each once, in the list's order;
    /// an unknown one is `invalid_scope`, naming it.
    public static func parse(_ list: [String]) throws(ServiceError) -> [APIKeyScope] {
        var scopes: [APIKeyScope] = []
        for name in list.flatMap({ $0.split(whereSeparator: { $0 == "," || $0 == " " }) }) {
            guard let scope = APIKeyScope(rawValue: String(name)) else {
                let known = allCases.map(\.rawValue).joined(separator: ", ")
                throw ServiceError(.invalidScope, "unknown scope \(name.echoed); the scopes are \(known)")
            }
            if !scopes.contains(scope) { scopes.append(scope) }
        }
        guard !scopes.isEmpty else { throw ServiceError(.invalidScope, "a key needs at least one scope") }
        return scopes
    }
}
