import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import PurserCore
import PurserServer
import PurserStorage
import Testing

/// The support console over live HTTP, as a browser without JavaScript uses it: sign-in and its throttle, the
/// session cookie's flags, CSRF on forms, escaping of what operators type, and make-good audited with the operator.
@Suite struct ConsoleTests {
    static let password = "correct horse battery"

    static func configure(_ configuration: inout ServerConfiguration) {
        // A cheap hash for tests (2^10 rounds); `purser console hash-password` makes 2^15.
        let hash = try! PasswordHash.make(password, logN: 10).encoded
        configuration.console.operators = [.init(name: "li", passwordHash: hash)]
    }

    /// Two operators, li and wang, with the same password.
    static func configureTwo(_ configuration: inout ServerConfiguration) {
        let hash = try! PasswordHash.make(password, logN: 10).encoded
        configuration.console.operators = [
            .init(name: "li", passwordHash: hash), .init(name: "wang", passwordHash: hash),
        ]
    }

    /// `configureTwo`, behind a proxy on the loopback that Purser trusts.
    static func configureBehindProxy(_ configuration: inout ServerConfiguration) {
        configureTwo(&configuration)
        configuration.http.trustedProxies = ["127.0.0.0/8", "::1/128"]
    }

    /// A form post, with the session cookie and `X-Forwarded-For` when given.
    static func post(
        _ client: some TestClientProtocol, _ uri: String, form: [String: String], cookie: String? = nil,
        forwardedFor: String? = nil
    ) async throws -> TestResponse {
        var headers: HTTPFields = [.contentType: "application/x-www-form-urlencoded"]
        if let cookie { headers[.cookie] = cookie }
        if let forwardedFor { headers[HTTPField.Name("X-Forwarded-For")!] = forwardedFor }
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        let body = form.map { "\($0)=\($1.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")" }
            .joined(separator: "&")
        return try await client.execute(uri: uri, method: .post, headers: headers, body: ByteBuffer(string: body))
    }

    static func get(_ client: some TestClientProtocol, _ uri: String, cookie: String? = nil, language: String? = nil)
        async throws -> TestResponse
    {
        var headers: HTTPFields = [:]
        if let cookie { headers[.cookie] = cookie }
        if let language { headers[.acceptLanguage] = language }
        return try await client.execute(uri: uri, method: .get, headers: headers)
    }

    /// Signs in as `li` and returns the `name=value` of the session cookie.
    static func signIn(_ client: some TestClientProtocol) async throws -> String {
        let response = try await post(client, "/console/sign-in", form: ["operator": "li", "password": password])
        #expect(response.status == .seeOther)
        let setCookie = try #require(response.headers[.setCookie])
        return String(setCookie.prefix { $0 != ";" })
    }

    static func csrf(in page: TestResponse) throws -> String {
        let html = String(buffer: page.body)
        let match = try #require(html.firstMatch(of: /name="csrf" value="([^"]+)"/))
        return String(match.1)
    }

    @Test func nothingAnswersWithoutASessionAndTheCookieIsHttpOnlyAndStrict() async throws {
        try await TestServer.run(configure: Self.configure) { _, client in
            for uri in ["/console/search", "/console/transactions/2000000000000001"] {
                let response = try await Self.get(client, uri)
                #expect(response.status == .seeOther, "\(uri)")
                #expect(response.headers[.location] == "/console/sign-in")
            }
            let signIn = try await Self.post(
                client, "/console/sign-in", form: ["operator": "li", "password": Self.password])
            let cookie = try #require(signIn.headers[.setCookie])
            #expect(cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict") && cookie.contains("Max-Age="))
            #expect(!cookie.contains("Secure"), "Secure only with console.secureCookies")
            let session = String(cookie.prefix { $0 != ";" })
            #expect(try await Self.get(client, "/console/search", cookie: session).status == .ok)
            // A cookie changed by one character is no session.
            let value = session.dropFirst("purser_console=".count).split(separator: ".")
            #expect(value.first == "bGk", "the cookie names its operator, li, in base64url")
            let forged = "purser_console=bGo." + value.dropFirst().joined(separator: ".")  // "lj", the same MAC
            #expect(try await Self.get(client, "/console/search", cookie: forged).status == .seeOther)
        }
    }

    @Test func aWrongPasswordIsRefusedAndRepeatedAttemptsAreThrottled() async throws {
        try await TestServer.run(configure: Self.configure) { _, client in
            for _ in 0..<5 {
                let wrong = try await Self.post(
                    client, "/console/sign-in", form: ["operator": "li", "password": "guess"])
                #expect(wrong.status == .unauthorized)
                #expect(wrong.headers[.setCookie] == nil)
            }
            let throttled = try await Self.post(
                client, "/console/sign-in", form: ["operator": "li", "password": Self.password])
            #expect(throttled.status == .tooManyRequests, "even the right password waits out the window")
            let token = try await Self.post(client, "/console/sign-in", form: ["token": "not-the-token"])
            #expect(token.status == .tooManyRequests || token.status == .unauthorized)
        }
    }

    /// Five wrong passwords for one name lock that name only: a colleague at the same address (behind the same
    /// proxy) still signs in, and so does the admin token. Once, the address was locked too, the token included.
    @Test func aLockedNameDoesNotLockOutTheTeam() async throws {
        try await TestServer.run(configure: Self.configureTwo) { _, client in
            for _ in 0..<5 {
                let wrong = try await Self.post(client, "/console/sign-in", form: ["operator": "li", "password": "x"])
                #expect(wrong.status == .unauthorized)
            }
            let li = try await Self.post(
                client, "/console/sign-in", form: ["operator": "li", "password": Self.password])
            #expect(li.status == .tooManyRequests)
            let wang = try await Self.post(
                client, "/console/sign-in", form: ["operator": "wang", "password": Self.password])
            #expect(wang.status == .seeOther, "a colleague at the same address signs in")
            let admin = try await Self.post(client, "/console/sign-in", form: ["token": TestServer.adminToken])
            #expect(admin.status == .seeOther, "the admin token is never locked out")
        }
    }

    /// Behind a trusted proxy the throttle counts the client that `X-Forwarded-For` names: fifty failures from one
    /// client lock that client, not the others behind the same proxy. From an untrusted peer the header is ignored.
    @Test func behindATrustedProxyTheThrottleCountsTheForwardedClient() async throws {
        try await TestServer.run(configure: Self.configureBehindProxy) { _, client in
            for attempt in 0..<50 {  // a different name each time, so only the address limit can trip
                let wrong = try await Self.post(
                    client, "/console/sign-in", form: ["operator": "guess\(attempt)", "password": "x"],
                    forwardedFor: "203.0.113.7")
                #expect(wrong.status == .unauthorized)
            }
            let blocked = try await Self.post(
                client, "/console/sign-in", form: ["operator": "wang", "password": Self.password],
                forwardedFor: "203.0.113.7")
            #expect(blocked.status == .tooManyRequests, "fifty failures lock that client's address")
            let other = try await Self.post(
                client, "/console/sign-in", form: ["operator": "wang", "password": Self.password],
                forwardedFor: "198.51.100.9")
            #expect(other.status == .seeOther, "another client behind the same proxy is not locked")
        }
        // Without trusting the proxy, the header is ignored: every failure counts against the peer.
        try await TestServer.run(configure: Self.configureTwo) { _, client in
            for attempt in 0..<50 {
                _ = try await Self.post(
                    client, "/console/sign-in", form: ["operator": "guess\(attempt)", "password": "x"],
                    forwardedFor: "203.0.113.\(attempt)")
            }
            let spoofed = try await Self.post(
                client, "/console/sign-in", form: ["operator": "wang", "password": Self.password],
                forwardedFor: "198.51.100.9")
            #expect(spoofed.status == .tooManyRequests, "an untrusted X-Forwarded-For changes nothing")
        }
    }

    @Test func makeGoodNeedsTheCSRFTokenEscapesTheReasonAndAuditsTheOperator() async throws {
        try await TestServer.run(configure: Self.configure) { server, client in
            // Paid without an order: unbound, support's case.
            let (id, jws) = try await server.pay("gold60", token: nil)
            _ = try await client.submit(jws, user: "alice")
            let session = try await Self.signIn(client)
            let page = try await Self.get(client, "/console/transactions/\(id)", cookie: session)
            #expect(page.status == .ok)
            #expect(String(buffer: page.body).contains("unbound"))

            let hostile = "<script>alert(1)</script> ticket 7"
            let withoutToken = try await Self.post(
                client, "/console/transactions/\(id)/grant", form: ["user": "alice", "reason": hostile],
                cookie: session)
            #expect(withoutToken.status == .forbidden)
            #expect(try await client.wallet("alice") == [:], "a form without its CSRF token changes nothing")

            let granted = try await Self.post(
                client, "/console/transactions/\(id)/grant",
                form: ["user": "alice", "reason": hostile, "csrf": try Self.csrf(in: page)], cookie: session)
            #expect(granted.status == .seeOther)
            #expect(try await client.wallet("alice") == ["gold": 60])
            let after = String(buffer: try await Self.get(client, "/console/transactions/\(id)", cookie: session).body)
            #expect(!after.contains("<script>alert(1)</script>"), "what an operator typed is shown as text")
            #expect(after.contains("&lt;script&gt;"))
            #expect(after.contains("support by li for alice: &lt;script&gt;"), "the audit trail names the operator")
            let audit = try await server.store.auditTrail(of: id)
            #expect(audit.contains { $0.cause.contains("support by li") && $0.cause.contains(hostile) }, "\(audit)")
        }
    }

    @Test func speaksChineseWhenTheBrowserAsks() async throws {
        try await TestServer.run(configure: Self.configure) { _, client in
            let page = try await Self.get(client, "/console/sign-in", language: "zh-CN,zh;q=0.9,en;q=0.8")
            #expect(String(buffer: page.body).contains("登录"))
            #expect(String(buffer: page.body).contains(#"lang="zh-Hans""#))
            let english = try await Self.get(client, "/console/sign-in", language: "en-US")
            #expect(String(buffer: english.body).contains("Sign in"))
        }
    }

    @Test func missingOversizedAndHostileFieldsAnswerWithTheFormAndChangeNothing() async throws {
        try await TestServer.run(configure: Self.configure) { server, client in
            let (id, jws) = try await server.pay("gold60", token: nil)
            _ = try await client.submit(jws, user: "alice")
            let session = try await Self.signIn(client)
            let page = try await Self.get(client, "/console/transactions/\(id)", cookie: session)
            let csrf = try Self.csrf(in: page)
            let cases: [([String: String], HTTPResponse.Status)] = [
                (["user": "alice", "reason": "", "csrf": csrf], .badRequest),
                (["user": "", "reason": "ticket", "csrf": csrf], .badRequest),
                (["user": "alice", "reason": String(repeating: "x", count: 501), "csrf": csrf], .badRequest),
                (["user": String(repeating: "u", count: 201), "reason": "ticket", "csrf": csrf], .badRequest),
                (["user": "<img src=x onerror=alert(1)>", "reason": "ticket", "csrf": "forged"], .forbidden),
            ]
            for (form, status) in cases {
                let response = try await Self.post(
                    client, "/console/transactions/\(id)/grant", form: form, cookie: session)
                #expect(response.status == status, "\(form.mapValues { $0.prefix(20) })")
                let html = String(buffer: response.body)
                #expect(html.contains(#"id="make-good""#), "the form again")
                #expect(html.contains(#"id="error""#), "with a message")
                #expect(!html.contains("<img src=x"), "nothing a visitor typed is markup")
            }
            #expect(try await server.store.transaction(id)?.state == .unbound, "nothing changed")
            #expect(try await client.wallet("alice") == [:])

            let search = try await Self.get(client, "/console/search?q=%3Cscript%3Ex%3C%2Fscript%3E", cookie: session)
            #expect(search.status == .ok)
            #expect(!String(buffer: search.body).contains("<script>x"), "the query is shown as text")
            let unknown = try await Self.get(client, "/console/transactions/9999999", cookie: session)
            #expect(unknown.status == .notFound)
        }
    }

    @Test func searchFindsAUsersPurchasesAndAnOrdersTransaction() async throws {
        try await TestServer.run(configure: Self.configure) { server, client in
            let order = try await server.order("gold60", for: "zoe", client: client)
            let (id, jws) = try await server.pay("gold60", token: order.appAccountToken)
            #expect(try await client.submit(jws, user: "zoe").status == .ok)
            let session = try await Self.signIn(client)
            let byUser = String(buffer: try await Self.get(client, "/console/search?q=zoe", cookie: session).body)
            #expect(byUser.contains("/console/transactions/\(id)"), "the user's purchase is listed")
            #expect(byUser.contains("credited to this user"))
            let byOrder = try await Self.get(client, "/console/search?q=\(order.orderId)", cookie: session)
            #expect(byOrder.status == .seeOther)
            #expect(byOrder.headers[.location] == "/console/transactions/\(id)")
            let nobody = String(buffer: try await Self.get(client, "/console/search?q=nobody", cookie: session).body)
            #expect(nobody.contains(#"id="nothing""#))
            // An order that no transaction has reached yet is found, not "nothing found".
            let waiting = try await server.order("gold60", for: "zoe", client: client)
            let unpaid = String(
                buffer: try await Self.get(client, "/console/search?q=\(waiting.orderId)", cookie: session).body)
            #expect(
                unpaid.contains(#"id="order""#) && unpaid.contains("zoe") && unpaid.contains("created"), "\(unpaid)")
            #expect(!unpaid.contains(#"id="nothing""#))
        }
    }
}
