import Foundation
import HTTPTypes
import Hummingbird
import PurserCore
import PurserStorage

/// The support console under `/console`: server-rendered pages (Mustache), no JavaScript, in English and Simplified
/// Chinese. Sign-in takes an operator's name and password (the ledger's operators, seeded from `console.operators`)
/// or the admin token; the session is a signed, `HttpOnly`, `SameSite=Strict` cookie (`Secure` with
/// `console.secureCookies`) checked against the ledger on every request (and ended there by signing out); every form
/// carries a CSRF token; failed sign-ins are throttled through the ledger. Nothing but sign-in answers without a session, and each page and form
/// needs a role (`viewer` reads, `support` binds and credits, `admin` replays and manages operators). In a studio
/// every app's router has its own `ConsoleRoutes` over its ledger, sharing the first app's operators, sessions and
/// throttle (`people`) and the switcher (`ConsoleStudio`); a page of an app the operator has no role in is 404.
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
    /// This app's ledger: its purchases, wallets, webhook events and goodwill requests.
    let store: any LedgerStore
    let keys: ConsoleSession.Keys
    let adminToken: String
    /// The app this console serves, whose roles count: its `bundleId`.
    let app: String
    /// Every app of the studio in `servedApps`' order, this one included: the switcher and the search over every
    /// app an operator may see (`ConsoleStudio`).
    let studio: ConsoleStudio

    /// The studio's first ledger, which holds the operators and the sign-in throttle's failures (`store` in a
    /// single-app Purser): one sign-in for every app.
    var people: any LedgerStore { studio.apps[0].store }
    /// What a `support` operator may give alone (`console.grantLimit`, `console.grantLimitPerDay`).
    let grantLimits: GrantLimits
    let secureCookies: Bool
    let sessionLength: TimeInterval
    let throttle: SignInThrottle
    /// What a name no operator has is checked against (`PasswordHash.decoy(costOf:)`), at a known name's cost.
    let decoy: PasswordHash
    /// Whose `X-Forwarded-For` names the client that the throttle counts (`http.trustedProxies`).
    let proxies: TrustedProxies
    let now: @Sendable () -> Date

    /// A request's valid session, the cookie that carries it, and that cookie's CSRF token (bound to `app` in a
    /// studio, so a form drawn for one app is refused by another); the operator's role in `app` as the ledger has it
    /// now (`admin` for the admin token), `nil` when they may not see it.
    struct SignedIn: Sendable {
        let session: ConsoleSession
        let csrf: String
        let cookie: String
        let role: ConsoleRole?
        /// The operator's record; `nil` for a session of the admin token.
        let person: ConsoleOperator?
        /// The apps the operator may see, in the studio's order, and the one this page is of.
        let apps: [String]
        let app: String
        /// Whether the studio serves several apps (then every page draws the switcher).
        let studio: Bool

        /// Whether the operator's role in this app includes `role`.
        func may(_ role: ConsoleRole) -> Bool { self.role?.includes(role) ?? false }

        /// Whether `token` is this session's CSRF token for this app.
        func accepts(_ token: String?) -> Bool {
            guard let token else { return false }
            return ConstantTime.equal(csrf, token)
        }
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
        console.get("apps/:bundleId") { request, context in
            try await switchApp(to: context.parameters.get("bundleId") ?? "", request: request)
        }
        console.post("sign-out") { request, context in
            let form = try await Self.form(request, context: context)
            guard let signedIn = try await signedIn(request), signedIn.accepts(form["csrf"]) else {
                return ConsolePage.redirect(to: "/console/sign-in")
            }
            // Ended in the ledger, not only in this browser: a copy of the cookie is refused on every replica.
            try await people.endConsoleSession(
                signedIn.session.id, expires: signedIn.session.expires, now: now())
            return ConsolePage.redirect(to: "/console/sign-in", setting: [cookie(value: "", maxAge: 0)])
        }
        console.get("transactions/:id") { request, context in
            try await signedIn(request, as: .viewer) { signedIn in
                try await transaction(
                    context.parameters.get("id") ?? "", request: request, signedIn: signedIn,
                    notice: request.uri.queryParameters.get("granted") != nil ? "granted" : nil)
            }
        }
        for (name, role, render) in [
            ("search", .viewer, search), ("unbound", .viewer, unbound),
            ("webhooks", .viewer, { @Sendable in try await webhookEvents($0, signedIn: $1) }),
            ("dashboard", .viewer, dashboard),
            ("users", .viewer, { @Sendable in try await user($0, signedIn: $1) }),
            ("approvals", .support, { @Sendable in try await approvals($0, signedIn: $1) }),
            ("operators", .admin, { @Sendable in try await operators($0, signedIn: $1) }),
        ] as [(String, ConsoleRole, @Sendable (Request, SignedIn) async throws -> Response)] {
            console.get(RouterPath(name)) { request, _ in
                try await signedIn(request, as: role) { try await render(request, $0) }
            }
        }
        for (path, role, act) in [
            ("webhooks/:id/replay", .admin, replay), ("transactions/:id/grant", .support, grant),
            ("approvals/:id/decide", .support, decide),
        ]
            as [(
                String, ConsoleRole,
                @Sendable (String, Request, PurserRequestContext, SignedIn) async throws -> Response
            )]
        {
            console.post(RouterPath(path)) { request, context in
                try await signedIn(request, as: role) {
                    try await act(context.parameters.get("id") ?? "", request, context, $0)
                }
            }
        }
        for (path, role, act) in [
            ("users/goodwill", .support, goodwill), ("operators", .admin, addOperator),
            ("operators/change", .admin, changeOperator),
        ] as [(String, ConsoleRole, @Sendable (Request, PurserRequestContext, SignedIn) async throws -> Response)] {
            console.post(RouterPath(path)) { request, context in
                try await signedIn(request, as: role) { try await act(request, context, $0) }
            }
        }
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

    /// A form body (`application/x-www-form-urlencoded`, Hummingbird's decoder) as a dictionary; anything else,
    /// a field given twice included, is an empty form (which fails its CSRF check and required fields).
    static func form(_ request: Request, context: PurserRequestContext) async throws -> [String: String] {
        let body = try await request.body.collect(upTo: 64 * 1024)
        return (try? URLEncodedFormDecoder().decode([String: String].self, from: String(buffer: body))) ?? [:]
    }
}
