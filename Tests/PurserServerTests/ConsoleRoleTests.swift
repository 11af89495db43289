import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import PurserCore
import PurserStorage
import Testing

@testable import PurserServer

/// Roles in the console over live HTTP: what a viewer may not do (the forms are not drawn, and a form posted by hand
/// is refused), goodwill above a support operator's limits waiting for a second operator, operators managed by an
/// admin with sessions that end when the ledger says so, and a throttle whose failures live in the ledger.
@Suite struct ConsoleRoleTests {
    static let password = ConsoleTests.password

    /// li is a viewer, zhao support, wang an admin (as every entry without a role is).
    static func configure(_ configuration: inout ServerConfiguration) {
        let hash = try! PasswordHash.make(password, logN: 10).encoded
        configuration.console.operators = [
            .init(name: "li", passwordHash: hash, role: "viewer"),
            .init(name: "zhao", passwordHash: hash, role: "support"), .init(name: "wang", passwordHash: hash),
        ]
        configuration.console.grantLimit = 100
        configuration.console.grantLimitPerDay = 150
    }

    static func signIn(_ client: some TestClientProtocol, as name: String, password: String = password)
        async throws -> String
    {
        let response = try await ConsoleTests.post(
            client, "/console/sign-in", form: ["operator": name, "password": password])
        #expect(response.status == .seeOther, "\(name)")
        let setCookie = try #require(response.headers[.setCookie])
        return String(setCookie.prefix { $0 != ";" })
    }

    static func html(_ response: TestResponse) -> String { String(buffer: response.body) }

    /// A goodwill credit asked for on `user`'s page.
    static func goodwill(
        _ client: some TestClientProtocol, cookie: String, user: String, amount: Int64, csrf: String
    ) async throws -> TestResponse {
        try await ConsoleTests.post(
            client, "/console/users/goodwill",
            form: [
                "csrf": csrf, "id": user, "key": UUID().uuidString, "currency": "gold", "amount": String(amount),
                "reason": "lost a chest",
            ], cookie: cookie)
    }

    @Test func aViewerSeesNoFormsThatChangeAnythingAndIsRefusedThemByHand() async throws {
        try await TestServer.run(configure: Self.configure) { server, client in
            let cookie = try await Self.signIn(client, as: "li")
            let page = try await ConsoleTests.get(client, "/console/users?id=mei", cookie: cookie)
            #expect(page.status == .ok)
            let csrf = try ConsoleTests.csrf(in: page)
            #expect(Self.html(page).contains("id=\"role\">viewer"))
            #expect(!Self.html(page).contains("id=\"goodwill\""))
            #expect(!Self.html(page).contains("/console/operators"))
            #expect(!Self.html(page).contains("/console/approvals"))

            let paid = try await server.pay("gold60", token: nil)
            _ = try await client.submit(paid.jws, user: "mei")
            let credit = try await Self.goodwill(client, cookie: cookie, user: "mei", amount: 5, csrf: csrf)
            #expect(credit.status == .forbidden)
            #expect(Self.html(credit).contains("id=\"forbidden\""))
            for uri in [
                "/console/transactions/\(paid.id)/grant", "/console/webhooks/evt-1/replay", "/console/operators",
            ] {
                let refused = try await ConsoleTests.post(
                    client, uri, form: ["csrf": csrf, "user": "mei", "reason": "r", "name": "x", "role": "admin"],
                    cookie: cookie)
                #expect(refused.status == .forbidden, "\(uri)")
            }
            #expect(try await ConsoleTests.get(client, "/console/operators", cookie: cookie).status == .forbidden)
            #expect(try await server.store.walletHistory(of: "mei", after: nil, limit: 10).entries.isEmpty)
            #expect(try await server.store.transaction(paid.id)?.state == .unbound)
            #expect(try await server.store.consoleOperator("x") == nil)
            let transaction = try await ConsoleTests.get(client, "/console/transactions/\(paid.id)", cookie: cookie)
            #expect(!Self.html(transaction).contains("id=\"make-good\""))
        }
    }

    @Test func aSupportGrantAboveTheLimitWaitsForASecondOperatorAndTheAuditNamesBoth() async throws {
        try await TestServer.run(configure: Self.configure) { server, client in
            let zhao = try await Self.signIn(client, as: "zhao")
            let csrf = try ConsoleTests.csrf(
                in: try await ConsoleTests.get(client, "/console/users?id=mei", cookie: zhao))
            let given = try await Self.goodwill(client, cookie: zhao, user: "mei", amount: 60, csrf: csrf)
            #expect(given.headers[.location]?.hasSuffix("&credited=1") == true)
            // Above the per-grant limit: it waits.
            let asked = try await Self.goodwill(client, cookie: zhao, user: "mei", amount: 200, csrf: csrf)
            #expect(asked.headers[.location]?.hasSuffix("&requested=1") == true)
            // Within the per-grant limit but above the day's: 60 + 60 + 60 > 150, the third waits.
            _ = try await Self.goodwill(client, cookie: zhao, user: "mei", amount: 60, csrf: csrf)
            let third = try await Self.goodwill(client, cookie: zhao, user: "mei", amount: 60, csrf: csrf)
            #expect(third.headers[.location]?.hasSuffix("&requested=1") == true)
            func credited() async throws -> [Int64] {
                try await server.store.walletHistory(of: "mei", after: nil, limit: 10).entries.compactMap {
                    $0.amounts["gold"]
                }
            }
            #expect(try await credited() == [60, 60])
            let waiting = try await server.store.consoleGrants(app: TestServer.bundleID, state: .pending, limit: 10)
            #expect(waiting.map(\.amount) == [200, 60])
            let request = try #require(waiting.first)

            // The requester may not approve their own request.
            let approvals = try await ConsoleTests.get(client, "/console/approvals", cookie: zhao)
            #expect(Self.html(approvals).contains("request-\(request.id)"))
            let own = try await ConsoleTests.post(
                client, "/console/approvals/\(request.id)/decide", form: ["csrf": csrf, "decision": "approve"],
                cookie: zhao)
            #expect(own.status == .forbidden)

            let wang = try await Self.signIn(client, as: "wang")
            let wangCSRF = try ConsoleTests.csrf(
                in: try await ConsoleTests.get(client, "/console/approvals", cookie: wang))
            let approved = try await ConsoleTests.post(
                client, "/console/approvals/\(request.id)/decide", form: ["csrf": wangCSRF, "decision": "approve"],
                cookie: wang)
            #expect(approved.status == .ok)
            #expect(try await credited() == [200, 60, 60])
            let entry = try #require(
                try await server.store.walletHistory(of: "mei", after: nil, limit: 1).entries.first)
            #expect(entry.cause == "support by zhao, approved by wang")
            let trail = try await server.store.auditTrail(of: "goodwill-\(request.id)")
            #expect(trail.contains { $0.cause == "support by zhao, approved by wang" && $0.event == "grant_approved" })
            // The same approval again (a second click) finishes nothing more: the credit replays by its id.
            let again = try await ConsoleTests.post(
                client, "/console/approvals/\(request.id)/decide", form: ["csrf": wangCSRF, "decision": "approve"],
                cookie: wang)
            #expect(again.status == .ok)
            #expect(try await credited() == [200, 60, 60])
            // Another operator (the admin token's session) finds it decided.
            let token = try await ConsoleTests.post(
                client, "/console/sign-in", form: ["operator": "", "token": TestServer.adminToken])
            let tokenCookie = String(try #require(token.headers[.setCookie]).prefix { $0 != ";" })
            let tokenCSRF = try ConsoleTests.csrf(
                in: try await ConsoleTests.get(client, "/console/approvals", cookie: tokenCookie))
            let decided = try await ConsoleTests.post(
                client, "/console/approvals/\(request.id)/decide", form: ["csrf": tokenCSRF, "decision": "decline"],
                cookie: tokenCookie)
            #expect(decided.status == .conflict)
            #expect(try await server.store.consoleGrant(request.id)?.state == .approved)
            let declined = try await ConsoleTests.post(
                client, "/console/approvals/\(waiting[1].id)/decide", form: ["csrf": wangCSRF, "decision": "decline"],
                cookie: wang)
            #expect(declined.status == .ok)
            #expect(try await server.store.consoleGrant(waiting[1].id)?.state == .declined)
            #expect(try await credited() == [200, 60, 60])
        }
    }

    @Test func anAdminManagesOperatorsAndDisablingOneEndsTheirSessionsAtOnce() async throws {
        try await TestServer.run(configure: Self.configure) { server, client in
            let zhao = try await Self.signIn(client, as: "zhao")
            let wang = try await Self.signIn(client, as: "wang")
            let csrf = try ConsoleTests.csrf(in: try await ConsoleTests.get(client, "/console/operators", cookie: wang))
            let added = try await ConsoleTests.post(
                client, "/console/operators",
                form: ["csrf": csrf, "name": "mei", "password": "a long enough one", "role": "support"], cookie: wang)
            #expect(added.status == .ok)
            #expect(try await server.store.consoleOperator("mei")?.roles == [TestServer.bundleID: .support])
            _ = try await Self.signIn(client, as: "mei", password: "a long enough one")

            #expect(try await ConsoleTests.get(client, "/console/dashboard", cookie: zhao).status == .ok)
            let disabled = try await ConsoleTests.post(
                client, "/console/operators/change", form: ["csrf": csrf, "name": "zhao", "change": "disable"],
                cookie: wang)
            #expect(disabled.status == .ok)
            let next = try await ConsoleTests.get(client, "/console/dashboard", cookie: zhao)
            #expect(next.status == .seeOther && next.headers[.location] == "/console/sign-in")
            let refused = try await ConsoleTests.post(
                client, "/console/sign-in", form: ["operator": "zhao", "password": Self.password])
            #expect(refused.status == .unauthorized)
            // Enabled again, the old cookie stays dead: the generation moved on.
            _ = try await ConsoleTests.post(
                client, "/console/operators/change", form: ["csrf": csrf, "name": "zhao", "change": "enable"],
                cookie: wang)
            #expect(try await ConsoleTests.get(client, "/console/dashboard", cookie: zhao).status == .seeOther)
            let again = try await Self.signIn(client, as: "zhao")
            // A role changed in the ledger counts on the next request; a new password ends the session.
            _ = try await ConsoleTests.post(
                client, "/console/operators/change",
                form: ["csrf": csrf, "name": "zhao", "change": "role", "role": "viewer"], cookie: wang)
            #expect(try await ConsoleTests.get(client, "/console/approvals", cookie: again).status == .forbidden)
            _ = try await ConsoleTests.post(
                client, "/console/operators/change",
                form: ["csrf": csrf, "name": "zhao", "change": "password", "password": "another long one"],
                cookie: wang)
            #expect(try await ConsoleTests.get(client, "/console/dashboard", cookie: again).status == .seeOther)
            _ = try await Self.signIn(client, as: "zhao", password: "another long one")

            let trail = try await server.store.auditTrail(of: "zhao")
            #expect(
                trail.map(\.event) == ["added", "disabled", "enabled", "role_changed", "password_changed"])
            #expect(
                trail.dropFirst().allSatisfy { $0.cause == "console by wang" } && trail.first?.cause == "configuration")
        }
    }

    @Test func theConfigurationSeedsOnlyWhatTheLedgerLacks() async throws {
        try await TestServer.run(configure: Self.configure) { server, client in
            let wang = try await Self.signIn(client, as: "wang")
            let csrf = try ConsoleTests.csrf(in: try await ConsoleTests.get(client, "/console/operators", cookie: wang))
            _ = try await ConsoleTests.post(
                client, "/console/operators/change",
                form: ["csrf": csrf, "name": "li", "change": "role", "role": "support"], cookie: wang)
            // A restart seeds again from the same configuration: li keeps the role the admin gave.
            let other = try PasswordHash.make("a different one", logN: 10)
            try await ConsoleRoutes.seed(
                ["li": (other, .viewer), "new": (other, .support)], apps: [TestServer.bundleID], store: server.store,
                now: Date())
            let li = try #require(try await server.store.consoleOperator("li"))
            #expect(li.roles == [TestServer.bundleID: .support] && li.passwordHash != other.encoded)
            #expect(try await server.store.consoleOperator("new")?.roles == [TestServer.bundleID: .support])
        }
    }

    /// A configuration entry without a role is an admin (the power every operator had before roles); an unknown
    /// role stops the server naming the entry; the two grant limits must make sense together.
    @Test func aConfiguredOperatorWithoutARoleIsAnAdminAndAnUnknownRoleIsRefused() throws {
        let hash = try PasswordHash.make(Self.password, logN: 10).encoded
        var console = ServerConfiguration.Console()
        console.operators = [
            .init(name: "li", passwordHash: hash), .init(name: "zhao", passwordHash: hash, role: "support"),
        ]
        let checked = try console.checkedOperators()
        #expect(checked["li"]?.role == .admin && checked["zhao"]?.role == .support)
        console.operators.append(.init(name: "eve", passwordHash: hash, role: "root"))
        #expect(throws: ConfigurationError.self) { try console.checkedOperators() }
        console.operators.removeLast()
        console.grantLimitPerDay = console.grantLimit - 1
        #expect(throws: ConfigurationError.self) { try console.check() }
    }

    /// The generation is signed with the rest of the cookie: raising it by hand (to outlive a bump) breaks the
    /// signature, and a cookie of the release before generations is not accepted.
    @Test func theCookiesGenerationCannotBeChangedByHand() {
        let keys = ConsoleSession.Keys(adminToken: "token")
        let now = Date()
        let value = keys.cookieValue(
            for: ConsoleSession(operatorName: "zhao", generation: 3, expires: now.addingTimeInterval(60)))
        #expect(keys.session(fromCookie: value, now: now)?.generation == 3)
        var parts = value.split(separator: ".").map(String.init)
        parts[1] = "4"
        #expect(keys.session(fromCookie: parts.joined(separator: "."), now: now) == nil)
        parts[1] = "t"  // posing as the admin token's session
        #expect(keys.session(fromCookie: parts.joined(separator: "."), now: now) == nil)
        #expect(keys.session(fromCookie: [parts[0], parts[2], parts[3]].joined(separator: "."), now: now) == nil)
    }

    /// The throttle's failures are the ledger's: failures recorded by another replica count here.
    @Test func theThrottleCountsFailuresEveryReplicaRecorded() async throws {
        try await TestServer.run(configure: Self.configure) { server, client in
            for _ in 0..<5 {
                try await server.store.recordSignInFailure(
                    keys: ["operator:zhao"], at: Date(), forgettingBefore: Date().addingTimeInterval(-300))
            }
            let throttled = try await ConsoleTests.post(
                client, "/console/sign-in", form: ["operator": "zhao", "password": Self.password])
            #expect(throttled.status == .tooManyRequests)
            _ = try await Self.signIn(client, as: "wang")
        }
    }
}
