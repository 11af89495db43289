import Crypto
import Foundation
import Logging
import PurserStorage
import Testing

/// The admin API's privileges as one table, against a live `purser serve` of two apps: every admin operation
/// `openapi.yaml` documents × every kind of caller × the `X-Purser-App` header (the first app, the other, none),
/// each answer (status and error code) checked against what the rules below derive. The rules are written here,
/// not read from the server; an operation `openapi.yaml` gains without a row in `routes` fails the test.
@Suite struct PrivilegeMatrixTests {
    static let (dragons, racers) = (ServeCommandTests.dragons, ServeCommandTests.racers)
    static let scopes = ["ledger:read", "support:write", "webhooks:write", "wallet:write", "keys:admin", "*"]

    /// What a usable key holds: its scopes, and its apps (`nil`: every app).
    struct Key: Sendable {
        var scopes: Set<String>
        var apps: [String]?

        func holds(_ scope: String) -> Bool { scopes.contains("*") || scopes.contains(scope) }
        func covers(_ others: [String]?) -> Bool {
            guard let apps else { return true }
            return others.map { $0.allSatisfy(apps.contains) } ?? false
        }
        /// What creating a key asks of its maker, and so reading or revoking one: every scope, every app.
        func mayManage(_ key: Key) -> Bool { key.scopes.allSatisfy(holds) && covers(key.apps) }
    }

    /// A kind of caller: a bearer secret (none for no credential) and, when the server should take it, its key.
    struct Caller {
        var name: String
        var secret: String?
        var key: Key?
    }

    struct Answer: Equatable, Sendable, CustomStringConvertible {
        var status: Int
        var code: String?
        var description: String { "\(status) \(code ?? "-")" }
    }

    /// An admin operation: a request that reaches its handler (a body made from a number unique to each request),
    /// the scope it needs, whether it belongs to an app (the keys belong to none), and what its handler answers a
    /// caller past every gate.
    struct Route: Sendable {
        var method: String
        var template: String
        var path: String
        var scope: String
        var ofApp = true
        var body: (@Sendable (Int) -> String)?
        var answer: @Sendable (Key) -> Answer
    }

    /// A route of an app whose handler answers every caller past the gates `status` and `code`: a success, or a
    /// refusal only the handler gives (a malformed id, an empty wallet), never one a gate gives.
    static func route(
        _ method: String, _ template: String, _ path: String, _ scope: String, body: String? = nil,
        answers status: Int, _ code: String? = nil
    ) -> Route {
        var route = Route(
            method: method, template: template, path: path, scope: scope,
            answer: { _ in Answer(status: status, code: code) })
        if let body { route.body = { _ in body } }
        return route
    }

    /// The key `GET` and `DELETE /admin/v1/keys/{name}` ask for: `keys:admin` for the first app.
    static let target = Key(scopes: ["keys:admin"], apps: [dragons])

    static let routes: [Route] = [
        route("GET", "/admin/v1/orders/{appleOrderId}", "/admin/v1/orders/MX1", "ledger:read", answers: 200),
        route(
            "GET", "/admin/v1/app-transactions/{appTransactionId}", "/admin/v1/app-transactions/app-tx-1",
            "ledger:read", answers: 200),
        route(
            "GET", "/admin/v1/transactions/{id}", "/admin/v1/transactions/x", "ledger:read", answers: 400,
            "invalid_transaction_id"),
        route(
            "POST", "/admin/v1/grants", "/admin/v1/grants", "support:write",
            body: #"{"transactionId":"x","userId":"u","reason":"r"}"#, answers: 400, "invalid_transaction_id"),
        route(
            "DELETE", "/admin/v1/users/{userId}", "/admin/v1/users/%20", "support:write", answers: 400,
            "invalid_user_id"),
        route(
            "GET", "/admin/v1/users/{userId}/export", "/admin/v1/users/%20/export", "ledger:read", answers: 400,
            "invalid_user_id"),
        route("GET", "/admin/v1/wallets/{userId}", "/admin/v1/wallets/m-user", "ledger:read", answers: 200),
        route(
            "GET", "/admin/v1/wallets/{userId}/transactions", "/admin/v1/wallets/m-user/transactions", "ledger:read",
            answers: 200),
        route(
            "POST", "/admin/v1/wallets/{userId}/transactions", "/admin/v1/wallets/m-user/transactions",
            "wallet:write", body: #"{"id":"m-spend","amounts":{"gold":-1},"reason":"r"}"#, answers: 422,
            "insufficient_balance"),
        route(
            "POST", "/admin/v1/wallets/{userId}/holds", "/admin/v1/wallets/m-user/holds", "wallet:write",
            body: #"{"id":"m-hold","amounts":{"gold":1},"expiresInSeconds":60,"reason":"r"}"#, answers: 422,
            "insufficient_balance"),
        route(
            "POST", "/admin/v1/holds/{id}/capture", "/admin/v1/holds/m-voided/capture", "wallet:write",
            answers: 409, "hold_already_voided"),
        route("POST", "/admin/v1/holds/{id}/void", "/admin/v1/holds/m-voided/void", "wallet:write", answers: 200),
        route("GET", "/admin/v1/webhooks/events", "/admin/v1/webhooks/events", "ledger:read", answers: 200),
        route(
            "POST", "/admin/v1/webhooks/events/{id}/replay", "/admin/v1/webhooks/events/not-an-event/replay",
            "webhooks:write", answers: 400, "invalid_event_id"),
        route(
            "POST", "/admin/v1/webhooks/endpoints/test", "/admin/v1/webhooks/endpoints/test", "webhooks:write",
            answers: 409, "webhooks_not_configured"),
        Route(
            method: "GET", template: "/admin/v1/keys", path: "/admin/v1/keys", scope: "keys:admin", ofApp: false,
            answer: { _ in Answer(status: 200) }),
        // Each key made has a name of its own; it gives `keys:admin` for the first app.
        Route(
            method: "POST", template: "/admin/v1/keys", path: "/admin/v1/keys", scope: "keys:admin", ofApp: false,
            body: { #"{"name":"m-made-\#($0)","scopes":["keys:admin"],"apps":["\#(dragons)"]}"# },
            answer: { $0.covers(target.apps) ? Answer(status: 201) : Answer(status: 403, code: "forbidden_scope") }),
        Route(
            method: "GET", template: "/admin/v1/keys/{name}", path: "/admin/v1/keys/m-target", scope: "keys:admin",
            ofApp: false,
            answer: { $0.mayManage(target) ? Answer(status: 200) : Answer(status: 404, code: "not_found") }),
        Route(
            method: "DELETE", template: "/admin/v1/keys/{name}", path: "/admin/v1/keys/m-target", scope: "keys:admin",
            ofApp: false,
            answer: { $0.mayManage(target) ? Answer(status: 200) : Answer(status: 404, code: "not_found") }),
    ]

    /// The rules, in the order the server applies them: a route of an app is dispatched first (a studio needs the
    /// app named, before any credential is read); then the credential (absent, wrong, revoked or expired: 401); a
    /// key limited to other apps finds nothing of this one (404, as if nothing were there); a key without the
    /// route's scope is refused (403); the handler answers the rest.
    static func expected(_ route: Route, _ caller: Caller, app: String?) -> Answer {
        if route.ofApp, app == nil { return Answer(status: 400, code: "app_required") }
        guard let key = caller.key else { return Answer(status: 401, code: "unauthenticated") }
        if route.ofApp, let app, !key.covers([app]) { return Answer(status: 404, code: "not_found") }
        guard key.holds(route.scope) else { return Answer(status: 403, code: "forbidden_scope") }
        return route.answer(key)
    }

    /// Every `METHOD /admin/v1/…` operation of `openapi.yaml`'s `paths:` block.
    static func documentedAdminOperations() throws -> Set<String> {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("openapi.yaml")
        var operations: Set<String> = []
        var (inPaths, path) = (false, "")
        for line in try String(contentsOf: file, encoding: .utf8).split(separator: "\n") {
            if !line.hasPrefix(" ") { inPaths = line == "paths:" }
            guard inPaths else { continue }
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("  /"), line.hasSuffix(":") {
                path = String(trimmed.dropLast())
            } else if line.hasPrefix("    "), !line.hasPrefix("     "), line.hasSuffix(":"),
                ["get", "head", "post", "put", "patch", "delete"].contains(trimmed.dropLast()),
                path.hasPrefix("/admin/v1/")
            {
                operations.insert("\(trimmed.dropLast().uppercased()) \(path)")
            }
        }
        return operations
    }

    @Test func everyRouteHasARow() throws {
        let documented = try Self.documentedAdminOperations()
        let rows = Self.routes.map { "\($0.method) \($0.template)" }
        #expect(Set(rows) == documented && rows.count == documented.count, "\(documented.subtracting(rows))")
    }
}
