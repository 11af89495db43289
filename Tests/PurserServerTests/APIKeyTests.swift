import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import PurserCore
import PurserServer
import PurserStorage
import Testing

/// The admin API's keys over live HTTP: made, used and revoked through `/admin/v1/keys`, each route refusing a key
/// without its scope (403) and a key of another app (404), and every change named in the audit log.
@Suite struct APIKeyTests {
    /// Every admin route, a request that reaches its handler, and the scope it needs (`ContractTests` reads the same
    /// `openapi.yaml`; `coversEveryAdminRoute` holds this table to it).
    static let routes: [(method: HTTPRequest.Method, path: String, body: String?, scope: String)] = [
        (.get, "/admin/v1/orders/MX1", nil, "ledger:read"),
        (.get, "/admin/v1/app-transactions/app-tx-1", nil, "ledger:read"),
        (.get, "/admin/v1/transactions/2000000000000001", nil, "ledger:read"),
        (
            .post, "/admin/v1/grants", #"{"transactionId":"2000000000000001","userId":"u","reason":"r"}"#,
            "support:write"
        ),
        (.get, "/admin/v1/users/u/export", nil, "ledger:read"),
        (.delete, "/admin/v1/users/u", nil, "support:write"),
        (.get, "/admin/v1/wallets/u", nil, "ledger:read"),
        (.get, "/admin/v1/wallets/u/transactions", nil, "ledger:read"),
        (.post, "/admin/v1/wallets/u/transactions", #"{"id":"s1","amounts":{"gold":-1},"reason":"r"}"#, "wallet:write"),
        (
            .post, "/admin/v1/wallets/u/holds", #"{"id":"h1","amounts":{"gold":1},"expiresInSeconds":60,"reason":"r"}"#,
            "wallet:write"
        ),
        (.post, "/admin/v1/holds/h1/capture", nil, "wallet:write"),
        (.post, "/admin/v1/holds/h1/void", nil, "wallet:write"),
        (.get, "/admin/v1/webhooks/events", nil, "ledger:read"),
        (.post, "/admin/v1/webhooks/events/evt_1/replay", nil, "webhooks:write"),
        (.post, "/admin/v1/webhooks/endpoints/test", nil, "webhooks:write"),
        (.get, "/admin/v1/keys", nil, "keys:admin"),
        (.post, "/admin/v1/keys", #"{"name":"made-by-a-test","scopes":["keys:admin"]}"#, "keys:admin"),
        (.get, "/admin/v1/keys/nobody", nil, "keys:admin"),
        (.delete, "/admin/v1/keys/nobody", nil, "keys:admin"),
    ]
    static let scopes = ["ledger:read", "support:write", "webhooks:write", "wallet:write", "keys:admin"]

    @Test func coversEveryAdminRoute() throws {
        let documented = try ContractTests.documentedOperations().filter { $0.path.hasPrefix("/admin/v1/") }
            .flatMap { operation in operation.methods.map { "\($0) \(operation.path)" } }
        let tested = Self.routes.map { route in
            "\(route.method.rawValue) " + Self.template(route.path, documented: documented)
        }
        #expect(Set(tested) == Set(documented) && tested.count == documented.count)
    }

    @Test func everyRouteRefusesAKeyWithoutItsScopeAndAKeyOfAnotherApp() async throws {
        try await TestServer.run { server, client in
            var secrets: [String: String] = [:]
            for scope in Self.scopes {
                secrets[scope] = try await Self.make(
                    "only-\(scope.replacingOccurrences(of: ":", with: "-"))", scopes: [scope], client: client
                ).secret
            }
            let elsewhere = try await Self.storeKey(named: "other-game", apps: ["com.example.other"], in: server.store)
            for route in Self.routes {
                let label = "\(route.method) \(route.path)"
                for (scope, secret) in secrets where scope != route.scope {
                    let refused = try await client.key(secret, route.method, route.path, body: route.body)
                    #expect(refused.status == .forbidden && refused.errorCode == "forbidden_scope", "\(label) \(scope)")
                }
                let hidden = try await client.key(elsewhere, route.method, route.path, body: route.body)
                if route.path.hasPrefix("/admin/v1/keys") {
                    // The keys belong to no app: another app's key sees none of this app's keys, may give no key
                    // for every app, and finds nothing to read or revoke.
                    let expected: HTTPResponse.Status =
                        route.path == "/admin/v1/keys" ? (route.method == .get ? .ok : .forbidden) : .notFound
                    #expect(hidden.status == expected, "\(label) other app")
                    #expect(!String(buffer: hidden.body).contains("only-"), "\(label) other app")
                } else {
                    #expect(hidden.status == .notFound && hidden.errorCode == "not_found", "\(label) other app")
                }
                let allowed = try await client.key(
                    try #require(secrets[route.scope]), route.method, route.path, body: route.body)
                #expect(![.unauthorized, .forbidden].contains(allowed.status), "\(label): \(allowed.status)")
            }
            let unknown = try await client.key("purser_not-a-key", .get, "/admin/v1/wallets/u", body: nil)
            #expect(unknown.status == .unauthorized && unknown.errorCode == "unauthenticated")
        }
    }

    @Test func aKeyIsShownOnceUsedByNameInTheAuditLogAndRevokedAtOnce() async throws {
        try await TestServer.run { server, client in
            let backend = try await Self.make("game-backend", scopes: ["wallet:write", "ledger:read"], client: client)
            #expect(backend.key.state == "active" && backend.key.apps == nil && backend.key.createdBy == "sam")
            let support = try await Self.make("support-desk", scopes: ["support:write"], client: client)

            let deposit = #"{"id":"w1","amounts":{"gold":50},"reason":"welcome"}"#
            #expect(
                try await client.key(backend.secret, .post, "/admin/v1/wallets/kim/transactions", body: deposit).status
                    == .ok)
            // Making good is support's: a deposit passes with support:write, a spend does not.
            let goodwill = #"{"id":"w2","amounts":{"gold":5},"reason":"sorry"}"#
            #expect(
                try await client.key(support.secret, .post, "/admin/v1/wallets/kim/transactions", body: goodwill).status
                    == .ok)
            let spend = #"{"id":"w3","amounts":{"gold":-5},"reason":"sword"}"#
            let refused = try await client.key(support.secret, .post, "/admin/v1/wallets/kim/transactions", body: spend)
            #expect(refused.status == .forbidden && refused.errorCode == "forbidden_scope")
            #expect(
                try await client.key(backend.secret, .post, "/admin/v1/wallets/kim/transactions", body: spend).status
                    == .ok)
            let history = try await server.store.walletHistory(of: "kim", after: nil, limit: 10).entries
            #expect(
                history.map(\.cause) == [
                    "admin by key:game-backend", "admin by key:support-desk", "admin by key:game-backend",
                ])

            let listed = try await client.admin(.get, "/admin/v1/keys")
            let text = String(buffer: listed.body)
            #expect(listed.status == .ok && text.contains("support-desk") && !text.contains(support.secret))
            #expect(!text.contains(APIKeyTests.hash(support.secret)))

            let revoked = try await client.admin(.delete, "/admin/v1/keys/support-desk")
            #expect(revoked.status == .ok && String(buffer: revoked.body).contains(#""state":"revoked""#))
            let after = try await client.key(support.secret, .get, "/admin/v1/wallets/kim", body: nil)
            #expect(after.status == .unauthorized)
            #expect(try await client.admin(.delete, "/admin/v1/keys/nobody").status == .notFound)
            let trail = try await server.store.auditTrail(of: "support-desk")
            #expect(trail.map(\.event) == ["created", "revoked"] && trail.map(\.cause) == ["by sam", "by sam"])
            let again = try await client.admin(
                .post, "/admin/v1/keys", body: #"{"name":"support-desk","scopes":["*"]}"#)
            #expect(again.status == .conflict && again.errorCode == "key_exists")
        }
    }

    @Test func aKeyGivesNoMoreThanItHoldsAndBadRequestsAreNamed() async throws {
        try await TestServer.run { _, client in
            let keeper = try await Self.make("key-keeper", scopes: ["keys:admin", "ledger:read"], client: client)
            for body in [
                #"{"name":"stronger","scopes":["*"]}"#, #"{"name":"stronger","scopes":["wallet:write"]}"#,
            ] {
                let refused = try await client.key(keeper.secret, .post, "/admin/v1/keys", body: body)
                #expect(refused.status == .forbidden && refused.errorCode == "forbidden_scope", "\(body)")
            }
            let weaker = try await client.key(
                keeper.secret, .post, "/admin/v1/keys", body: #"{"name":"reader","scopes":["ledger:read"]}"#)
            #expect(weaker.status == .created)
            for (body, code) in [
                (#"{"name":"bad name","scopes":["ledger:read"]}"#, "invalid_key_name"),
                (#"{"name":"admin.token","scopes":["ledger:read"]}"#, "invalid_key_name"),
                (#"{"name":"x","scopes":["ledger:write"]}"#, "invalid_scope"),
                (#"{"name":"x","scopes":[]}"#, "invalid_scope"),
                (#"{"name":"x","scopes":["*"],"apps":["com.example.other"]}"#, "unknown_app"),
                (#"{"name":"x","scopes":["*"],"apps":[]}"#, "invalid_apps"),
                (#"{"name":"x","scopes":["*"],"expiresInDays":0}"#, "invalid_expiry"),
            ] {
                let response = try await client.admin(.post, "/admin/v1/keys", body: body)
                #expect(response.errorCode == code && (400..<500).contains(response.status.code), "\(body)")
            }
            let limited = try await client.admin(
                .post, "/admin/v1/keys",
                body:
                    #"{"name":"this-game","scopes":["ledger:read"],"apps":["\#(TestServer.bundleID)"],"expiresInDays":30}"#
            )
            #expect(limited.status == .created)
            let view = try limited.decode(Made.self).key
            #expect(
                view.apps == [TestServer.bundleID]
                    && view.expiresAt.map { $0.timeIntervalSinceNow > 29 * 86_400 } == true)
        }
    }

    @Test func anExpiredKeyIsRefused() async throws {
        try await TestServer.run { server, client in
            let secret = try await Self.storeKey(
                named: "old", apps: nil, expiresAt: Date().addingTimeInterval(-1), in: server.store)
            #expect(try await client.key(secret, .get, "/admin/v1/wallets/u", body: nil).status == .unauthorized)
            let listed = try await client.admin(.get, "/admin/v1/keys")
            #expect(String(buffer: listed.body).contains(#""state":"expired""#))
        }
    }

    struct Made: Decodable {
        struct Key: Decodable {
            var name: String
            var scopes: [String]
            var apps: [String]?
            var state: String
            var createdBy: String
            var expiresAt: Date?
        }
        var key: Key
        var secret: String
    }

    static func make(_ name: String, scopes: [String], client: some TestClientProtocol) async throws -> Made {
        let body = try JSONSerialization.data(withJSONObject: ["name": name, "scopes": scopes])
        let response = try await client.admin(.post, "/admin/v1/keys", body: String(decoding: body, as: UTF8.self))
        #expect(response.status == .created, "\(String(buffer: response.body))")
        return try response.decode(Made.self)
    }

    /// A key written straight into the ledger (for what the API refuses to make: another app's, an expired one).
    static func storeKey(
        named name: String, apps: [String]?, expiresAt: Date? = nil, in store: any LedgerStore
    ) async throws -> String {
        let secret = "purser_test-\(name)-\(UUID().uuidString)"
        try await store.createAPIKey(
            APIKey(
                name: name, secretHash: hash(secret), scopes: ["*"], apps: apps, createdAt: Date(), createdBy: "test",
                expiresAt: expiresAt))
        return secret
    }

    static func hash(_ secret: String) -> String {
        SHA256.hash(data: Data(secret.utf8)).map { String(format: "%02x", $0) }.joined()
    }

    /// The documented template `path` is a request of: the matching one with the most literal segments.
    static func template(_ path: String, documented: [String]) -> String {
        let segments = path.split(separator: "/")
        let templates = documented.map { String($0.split(separator: " ")[1]) }.filter { template in
            let parts = template.split(separator: "/")
            return parts.count == segments.count && zip(parts, segments).allSatisfy { $0.hasPrefix("{") || $0 == $1 }
        }
        return templates.max { $0.filter { $0 == "{" }.count > $1.filter { $0 == "{" }.count } ?? path
    }
}

extension TestClientProtocol {
    /// A request to the admin API with the API key `secret`; a body is sent as JSON.
    func key(_ secret: String, _ method: HTTPRequest.Method, _ uri: String, body: String?) async throws -> TestResponse
    {
        var headers: HTTPFields = [.authorization: "Bearer \(secret)"]
        if body != nil { headers[.contentType] = "application/json" }
        return try await execute(uri: uri, method: method, headers: headers, body: body.map { ByteBuffer(string: $0) })
    }
}
