import Foundation
import HTTPTypes
import Hummingbird
import PurserCore
import PurserStorage

/// The support console under `/console`: server-rendered pages (Mustache), no JavaScript, in English and Simplified
/// Chinese. Sign-in takes an operator's name and password (scrypt hashes in `console.operators`) or the admin
/// token; the session is a signed, `HttpOnly`, `SameSite=Strict` cookie (`Secure` with `console.secureCookies`);
/// every form carries a CSRF token; failed sign-ins are throttled. Nothing but sign-in answers without a session.
struct ConsoleRoutes: Sendable {
    let support: SupportService
    /// The wallet a user page shows, as `GET /v1/wallet` answers it.
    let orders: OrderService
    /// Goodwill credits from a user's page: deposits of at most `goodwillLimit` per currency (0: no form).
    let wallets: WalletService
    let goodwillLimit: Int64
    /// The dashboard's gauge of the oldest unbound transaction is drawn against this age (`console.unboundAlertSeconds`).
    let unboundAlert: TimeInterval
    let webhooks: WebhookService
    let store: any LedgerStore
    let keys: ConsoleSession.Keys
    let adminToken: String
    let operators: [String: PasswordHash]
    let secureCookies: Bool
    let sessionLength: TimeInterval
    let throttle: SignInThrottle
    /// Whose `X-Forwarded-For` names the client that the throttle counts (`http.trustedProxies`).
    let proxies: TrustedProxies
    let now: @Sendable () -> Date

    /// A request's valid session, the cookie that carries it, and that cookie's CSRF token.
    struct SignedIn: Sendable {
        let session: ConsoleSession
        let csrf: String
        let cookie: String
    }

    func add(to router: Router<PurserRequestContext>) {
        let console = router.group("console")
        console.get { _, _ in ConsolePage.redirect(to: "/console/dashboard") }
        console.get("assets/console.css") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "text/css; charset=utf-8", .cacheControl: "max-age=3600"],
                body: .init(byteBuffer: ByteBuffer(string: ConsoleTemplates.stylesheet)))
        }
        console.get("lang/:code") { request, context in
            let code = context.parameters.get("code") ?? "en"
            let back = request.uri.queryParameters.get("back").flatMap { $0.hasPrefix("/console/") ? $0 : nil }
            guard ConsoleText.languages.contains(code) else { return ConsolePage.redirect(to: back ?? "/console") }
            return ConsolePage.redirect(
                to: back ?? "/console", setting: ["\(ConsoleText.cookieName)=\(code); Path=/console; SameSite=Strict"])
        }
        console.get("sign-in") { request, _ in
            page("sign-in").response(language: language(request), signedIn: nil, path: "/console/sign-in")
        }
        console.post("sign-in") { request, context in try await signIn(request, context: context) }
        console.post("sign-out") { request, context in
            let form = try await Self.form(request, context: context)
            guard let signedIn = signedIn(request), keys.isValidCSRF(form["csrf"], forCookie: signedIn.cookie) else {
                return ConsolePage.redirect(to: "/console/sign-in")
            }
            return ConsolePage.redirect(to: "/console/sign-in", setting: [cookie(value: "", maxAge: 0)])
        }
        console.get("search") { request, _ in
            guard let signedIn = signedIn(request) else { return ConsolePage.redirect(to: "/console/sign-in") }
            return try await search(request, signedIn: signedIn)
        }
        console.get("transactions/:id") { request, context in
            guard let signedIn = signedIn(request) else { return ConsolePage.redirect(to: "/console/sign-in") }
            return try await transaction(
                context.parameters.get("id") ?? "", request: request, signedIn: signedIn,
                notice: request.uri.queryParameters.get("granted") != nil ? "granted" : nil)
        }
        for (name, render) in [
            ("unbound", unbound), ("webhooks", { try await webhookEvents($0, signedIn: $1) }),
            ("dashboard", dashboard), ("users", { try await user($0, signedIn: $1) }),
        ] as [(String, @Sendable (Request, SignedIn) async throws -> Response)] {
            console.get(RouterPath(name)) { request, _ in
                guard let signedIn = signedIn(request) else { return ConsolePage.redirect(to: "/console/sign-in") }
                return try await render(request, signedIn)
            }
        }
        console.post("webhooks/:id/replay") { request, context in
            guard let signedIn = signedIn(request) else { return ConsolePage.redirect(to: "/console/sign-in") }
            return try await replay(context.parameters.get("id") ?? "", request: request, context: context, signedIn)
        }
        console.post("users/goodwill") { request, context in
            guard let signedIn = signedIn(request) else { return ConsolePage.redirect(to: "/console/sign-in") }
            return try await goodwill(request, context: context, signedIn)
        }
        console.post("transactions/:id/grant") { request, context in
            guard let signedIn = signedIn(request) else { return ConsolePage.redirect(to: "/console/sign-in") }
            return try await grant(context.parameters.get("id") ?? "", request: request, context: context, signedIn)
        }
    }

    /// The valid session of `request`, if any.
    func signedIn(_ request: Request) -> SignedIn? {
        guard let value = request.cookies[ConsoleSession.cookieName]?.value,
            let session = keys.session(fromCookie: value, now: now())
        else { return nil }
        return SignedIn(session: session, csrf: keys.csrfToken(forCookie: value), cookie: value)
    }

    func language(_ request: Request) -> String {
        ConsoleText.language(
            cookie: request.cookies[ConsoleText.cookieName]?.value, acceptLanguage: request.headers[.acceptLanguage])
    }

    func page(_ template: String, status: HTTPResponse.Status = .ok, _ values: [String: Any] = [:]) -> ConsolePage {
        ConsolePage(template: template, status: status, values: values)
    }

    /// The session cookie: `HttpOnly`, `SameSite=Strict`, scoped to `/console`, `Secure` when configured.
    func cookie(value: String, maxAge: Int) -> String {
        "\(ConsoleSession.cookieName)=\(value); Path=/console; Max-Age=\(maxAge); HttpOnly; SameSite=Strict"
            + (secureCookies ? "; Secure" : "")
    }

    func signIn(_ request: Request, context: PurserRequestContext) async throws -> Response {
        let form = try await Self.form(request, context: context)
        let name = (form["operator"] ?? "").trimmingCharacters(in: .whitespaces)
        let client = proxies.client(
            peer: context.remoteAddress?.ipAddress ?? "unknown", forwardedFor: request.headers[Self.forwardedFor])
        let text = ConsoleText.table(language(request))
        // The admin token is checked before the throttle: the team's own key is never locked out.
        if let token = form["token"], !token.isEmpty, ConstantTime.equal(token, adminToken) {
            return signedIn(as: name.isEmpty ? "admin" : name)
        }
        guard throttle.allows(name: name, address: client, now: now()) else {
            return page("sign-in", status: .tooManyRequests, ["error": text["tooManyAttempts"] ?? ""])
                .response(language: language(request), signedIn: nil, path: "/console/sign-in")
        }
        guard form["token"]?.isEmpty ?? true, let hash = operators[name], let password = form["password"],
            password.count <= 200, hash.matches(password)
        else {
            throttle.recordFailure(name: name, address: client, now: now())
            return page("sign-in", status: .unauthorized, ["error": text["badCredentials"] ?? ""])
                .response(language: language(request), signedIn: nil, path: "/console/sign-in")
        }
        throttle.recordSuccess(name: name)
        return signedIn(as: name)
    }

    static let forwardedFor = HTTPField.Name("X-Forwarded-For")!

    /// A new session for `operatorName`, set as the cookie, and off to the dashboard.
    private func signedIn(as operatorName: String) -> Response {
        let session = ConsoleSession(operatorName: operatorName, expires: now().addingTimeInterval(sessionLength))
        return ConsolePage.redirect(
            to: "/console/dashboard",
            setting: [cookie(value: self.keys.cookieValue(for: session), maxAge: Int(sessionLength))])
    }

    /// A form body (`application/x-www-form-urlencoded`, Hummingbird's decoder) as a dictionary; anything else,
    /// a field given twice included, is an empty form (which fails its CSRF check and required fields).
    static func form(_ request: Request, context: PurserRequestContext) async throws -> [String: String] {
        let body = try await request.body.collect(upTo: 64 * 1024)
        return (try? URLEncodedFormDecoder().decode([String: String].self, from: String(buffer: body))) ?? [:]
    }
}
