import AppStoreSimulator
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import PurserCore
import PurserStorage
import Testing

@testable import PurserServer

/// Requests are dispatched on the path the router matches. Hummingbird's trie router skips empty segments, so
/// `//admin/v1/…` reached the first app's routes while the dispatch, reading the raw path, saw no `/admin/v1/` and
/// skipped the app header: a deposit for racers landed in the first app's ledger. Each shape of path (`//`, `/./`,
/// `%2F`, a trailing dot) sent to every route group of a two-app studio either answers exactly as the canonical path
/// (the same route, the same app) or is 404.
@Suite struct StudioPathTests {
    static let (home, racers) = (ConsoleStudioTests.home, ConsoleStudioTests.racers)

    /// The shapes of `path` (`/a/b/c`): doubled slashes (which reach the route), and dots and an encoded slash (which
    /// reach it or nothing) among its first `literal` segments (all of them by default; a dot or an encoded slash
    /// next to a parameter makes another value of it, another user, which the route checks as any other).
    static func shapes(of path: String, literal: Int? = nil) -> (reaching: [String], others: [String]) {
        let segments = path.split(separator: "/").map(String.init)
        let literal = literal ?? segments.count
        let cut = { (index: Int) in
            (segments[..<index].joined(separator: "/"), segments[index...].joined(separator: "/"))
        }
        let fixed = (1..<min(literal + 1, segments.count)).map(cut)
        var others = ["/." + path, "/\(segments[0])/../" + segments.joined(separator: "/")]
        if literal == segments.count { others += [path + ".", path + "/."] }
        others += fixed.flatMap { ["/\($0)/./\($1)", "/\($0)%2F\($1)", "/\($0)%2f\($1)"] }
        return (["/" + path, path + "/"] + (1..<segments.count).map(cut).map { "/\($0)//\($1)" }, others)
    }

    /// Sends every shape of `path`; each `reaching` one must answer as the canonical path does (`same`), every other
    /// one too or 404.
    static func expectShapes(
        of path: String, literal: Int? = nil, _ method: HTTPRequest.Method = .get, headers: HTTPFields = [:],
        body: String? = nil, client: some TestClientProtocol, same: (TestResponse) throws -> Bool
    ) async throws {
        let canonical = try await client.execute(
            uri: path, method: method, headers: headers, body: body.map { ByteBuffer(string: $0) })
        #expect(try same(canonical), "\(path) itself: \(canonical.status) \(String(buffer: canonical.body))")
        let (reaching, others) = shapes(of: path, literal: literal)
        for shape in reaching + others {
            let answer = try await client.execute(
                uri: shape, method: method, headers: headers, body: body.map { ByteBuffer(string: $0) })
            if others.contains(shape), answer.status == .notFound, answer.errorCode == "not_found" { continue }
            let matches = (try? same(answer)) ?? false
            #expect(
                answer.status == canonical.status && matches,
                "\(method) \(shape): \(answer.status) \(String(buffer: answer.body).prefix(300))")
        }
    }

    static func json(_ response: TestResponse) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(response.body.readableBytesView))) as? [String: Any] ?? [:]
    }

    @Test func everyShapeOfAPathReachesTheSameAppOrNothing() async throws {
        try await ConsoleStudioTests.run { studio, client in
            let ofHome = try await studio.buy(in: Self.home, as: "mei", client: client)
            let ofRacers = try await studio.buy(in: Self.racers, as: "mei", client: client)
            var admin: HTTPFields = [
                .authorization: "Bearer \(TestServer.adminToken)", .contentType: "application/json",
            ]
            admin[AppDispatchMiddleware.header] = Self.racers
            // /admin/v1: a deposit through `//admin/v1` for racers lands in racers' ledger, and every shape reads it.
            for (index, path) in ["//admin/v1/wallets/kim/transactions", "/admin/v1/wallets/kim/transactions"]
                .enumerated()
            {
                let deposit = try await client.execute(
                    uri: path, method: .post, headers: admin,
                    body: ByteBuffer(string: #"{"id":"d\#(index)","amounts":{"gold":7},"reason":"sorry"}"#))
                #expect(deposit.status == .ok, "\(path): \(String(buffer: deposit.body))")
            }
            #expect(try await studio.stores[1].walletHistory(of: "kim", after: nil, limit: 10).entries.count == 2)
            #expect(try await studio.stores[0].walletHistory(of: "kim", after: nil, limit: 10).entries.isEmpty)
            try await Self.expectShapes(
                of: "/admin/v1/wallets/kim/transactions", literal: 3, headers: admin, client: client
            ) {
                (Self.json($0)["entries"] as? [Any])?.count == 2
            }
            // /v1: the player's wallet in racers.
            let player = ConsoleStudioTests.headers(app: Self.racers, user: "kim")
            try await Self.expectShapes(of: "/v1/wallet", headers: player, client: client) {
                (Self.json($0)["balances"] as? [String: Int]) == ["gold": 14]
            }
            // Without the app, or with one not served, a doubled slash is refused as the canonical path is.
            for (path, app, code) in [
                ("/v1/wallet", nil, "app_required"), ("/v1/wallet", "com.example.other", "unknown_app"),
                ("/admin/v1/wallets/kim/transactions", nil, "app_required"),
                ("/admin/v1/wallets/kim/transactions", "com.example.other", "unknown_app"),
            ] as [(String, String?, String)] {
                var headers = path.hasPrefix("/admin") ? admin : player
                headers[AppDispatchMiddleware.header] = app
                try await Self.expectShapes(of: path, literal: 3, headers: headers, client: client) {
                    (try? $0.decode(APIErrorResponse.self))?.error.code == code
                }
            }
            // /console: the app cookie names racers; every shape shows racers' queue, never the first app's.
            let ana = try await ConsoleStudioTests.signIn(client, as: "ana")
            let console: HTTPFields = [.cookie: ConsoleStudioTests.inApp(Self.racers, ana)]
            try await Self.expectShapes(of: "/console/unbound", headers: console, client: client) {
                let html = String(buffer: $0.body)
                return html.contains(ofRacers) && !html.contains(ofHome)
            }
            // Apple's notifications: racers' reaches racers' ledger through every shape (the first app's would
            // have ignored it as another app's, with no id).
            let payload = try #require(
                try await studio.appStore.notificationHistory().map(\.signedPayload).first {
                    AppDispatchMiddleware.notificationBundle(Data(#"{"signedPayload":"\#($0)"}"#.utf8)) == Self.racers
                })
            var uuid = ""
            try await Self.expectShapes(
                of: "/v1/appstore/notifications", .post, headers: [.contentType: "application/json"],
                body: #"{"signedPayload":"\#(payload)"}"#, client: client
            ) {
                let outcome = try $0.decode(NotificationService.Outcome.self)
                if uuid.isEmpty { uuid = outcome.notificationUUID }
                return !uuid.isEmpty && outcome.notificationUUID == uuid
            }
            #expect(try await studio.stores[1].processedNotifications(among: [uuid]) == [uuid])
            #expect(try await studio.stores[0].processedNotifications(among: [uuid]).isEmpty)
            // The hosted App Store and the health check belong to the first app alone.
            let products = try await client.execute(uri: "/simulator/v1/products", method: .get, headers: [:])
            try await Self.expectShapes(of: "/simulator/v1/products", client: client) {
                String(buffer: $0.body) == String(buffer: products.body)
            }
            try await Self.expectShapes(of: "/health", client: client) {
                (Self.json($0)["status"] as? String) == "ok"
            }
        }
    }
}
