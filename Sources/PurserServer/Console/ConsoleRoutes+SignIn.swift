import Foundation
import HTTPTypes
import Hummingbird
import PurserCore
import PurserStorage

extension ConsoleRoutes {
    /// The valid session of `request`, if any: signed, unexpired, not signed out, and (but for the admin token's) of
    /// an operator the studio's ledger (`people`) holds now, enabled, with the session's generation and a role in some
    /// app. Read from the ledger on every request, so a disabled operator's or a signed-out session's next request on
    /// any replica is signed out.
    func signedIn(_ request: Request) async throws -> SignedIn? {
        guard let value = request.cookies[ConsoleSession.cookieName]?.value,
            let session = keys.session(fromCookie: value, now: now()),
            try await !people.consoleSessionEnded(session.id)
        else { return nil }
        let csrf = keys.csrfToken(forCookie: value, app: studio.several ? app : nil)
        guard let generation = session.generation else {
            return SignedIn(
                session: session, csrf: csrf, cookie: value, role: .admin, person: nil, apps: studio.bundleIds,
                app: app, studio: studio.several)
        }
        guard let person = try await people.consoleOperator(session.operatorName), !person.disabled,
            person.generation == generation
        else { return nil }
        let apps = studio.visible(to: person)
        guard !apps.isEmpty else { return nil }
        return SignedIn(
            session: session, csrf: csrf, cookie: value, role: person.roles[app], person: person, apps: apps,
            app: app, studio: studio.several)
    }

    /// Runs `body` for a signed-in operator whose role in this app includes `role`; without a session, off to
    /// sign-in (the stale cookie cleared); in an app they may not see, 404 as if it did not exist (or, when no app
    /// was chosen yet, off to the first they may see); with too small a role, 403 and a page that says so, whatever
    /// the request was.
    func signedIn(
        _ request: Request, as role: ConsoleRole, _ body: (SignedIn) async throws -> Response
    ) async throws -> Response {
        guard let signedIn = try await signedIn(request) else {
            let stale = request.cookies[ConsoleSession.cookieName] != nil
            return ConsolePage.redirect(to: "/console/sign-in", setting: stale ? [cookie(value: "", maxAge: 0)] : [])
        }
        guard let held = signedIn.role else {
            if request.cookies[ConsoleStudio.cookieName] == nil, request.method == .get,
                let first = signedIn.apps.first
            {
                return ConsolePage.redirect(to: ConsoleStudio.switchPath(first, back: request.uri.description))
            }
            return notFound(request, signedIn)
        }
        guard held.includes(role) else {
            let text = ConsoleText.table(language(request))
            return page("forbidden", status: .forbidden, ["error": text["forbidden"] ?? "", "needed": role.rawValue])
                .response(language: language(request), signedIn: signedIn, path: request.uri.path)
        }
        return try await body(signedIn)
    }

    /// 404: a page of an app the operator may not see, or of one the studio does not serve; nothing of it is shown.
    func notFound(_ request: Request, _ signedIn: SignedIn) -> Response {
        let text = ConsoleText.table(language(request))
        // The language links lead back to the dashboard, so not even the asked address is repeated.
        return page("not-found", status: .notFound, ["error": text["appNotFound"] ?? ""])
            .response(language: language(request), signedIn: signedIn, path: "/console/dashboard")
    }

    /// `GET /console/apps/{bundleId}?back=PATH`: the switcher. Sets the `purser_console_app` cookie, so the
    /// following pages are that app's, and goes back to `back` (a console page) or the dashboard; an app the
    /// operator may not see (or that is not served) is 404.
    func switchApp(to bundleId: String, request: Request) async throws -> Response {
        guard let signedIn = try await signedIn(request) else {
            return ConsolePage.redirect(to: "/console/sign-in")
        }
        guard signedIn.apps.contains(bundleId) else { return notFound(request, signedIn) }
        let back = request.uri.queryParameters.get("back").flatMap {
            ConsoleStudio.isConsolePath($0) ? $0 : nil
        }
        return ConsolePage.redirect(to: back ?? "/console/dashboard", setting: [appCookie(bundleId)])
    }

    /// The cookie that names the console's app (`ConsoleStudio.cookieName`): `HttpOnly`, `SameSite=Strict`,
    /// scoped to `/console`, `Secure` when configured; it lasts as long as the browser session.
    func appCookie(_ bundleId: String) -> String {
        "\(ConsoleStudio.cookieName)=\(bundleId); Path=/console; HttpOnly; SameSite=Strict"
            + (secureCookies ? "; Secure" : "")
    }

    /// Signs in with an operator's name and password, or with the admin token. Every attempt is throttled
    /// (`SignInThrottle`): a token by its address, a name by the name and the address. Every attempt with a name
    /// checks one scrypt hash, the decoy's for a name no operator has, so the time taken does not tell names apart.
    func signIn(_ request: Request, context: PurserRequestContext) async throws -> Response {
        let form = try await Self.form(request, context: context)
        let name = (form["operator"] ?? "").trimmingCharacters(in: .whitespaces)
        let client = proxies.client(
            peer: context.remoteAddress?.ipAddress ?? "unknown", forwardedFor: request.headers[Self.forwardedFor])
        let text = ConsoleText.table(language(request))
        let refused = { (status: HTTPResponse.Status, error: String) in
            page("sign-in", status: status, ["error": text[error] ?? ""])
                .response(language: language(request), signedIn: nil, path: "/console/sign-in")
        }
        if let token = form["token"], !token.isEmpty {
            guard try await throttle.allows(address: client, now: now()) else {
                return refused(.tooManyRequests, "tooManyAttempts")
            }
            guard ConstantTime.equal(token, adminToken) else {
                try await throttle.recordFailure(address: client, now: now())
                return refused(.unauthorized, "badCredentials")
            }
            return signedIn(as: name.isEmpty ? "admin" : name, generation: nil, apps: studio.bundleIds)
        }
        guard try await throttle.allows(name: name, address: client, now: now()) else {
            return refused(.tooManyRequests, "tooManyAttempts")
        }
        let person = name.isEmpty || name.count > 100 ? nil : try await people.consoleOperator(name)
        let password = form["password"].flatMap { $0.count <= 200 ? $0 : nil }
        let stored = person.flatMap { PasswordHash(encoded: $0.passwordHash) }
        let matches = await (stored ?? decoy).checks(password ?? "")
        guard let person, stored != nil, password != nil, matches, !person.disabled,
            !studio.visible(to: person).isEmpty
        else {
            try await throttle.recordFailure(name: name, address: client, now: now())
            return refused(.unauthorized, "badCredentials")
        }
        try await throttle.recordSuccess(name: name)
        return signedIn(as: name, generation: person.generation, apps: studio.visible(to: person))
    }

    static let forwardedFor = HTTPField.Name("X-Forwarded-For")!

    /// A new session for `operatorName` at `generation`, set as the cookie, and off to the dashboard; in a studio,
    /// of this app when the operator may see it (`apps`), else of the first they may see.
    private func signedIn(as operatorName: String, generation: Int64?, apps: [String]) -> Response {
        let session = ConsoleSession(
            operatorName: operatorName, generation: generation, expires: now().addingTimeInterval(sessionLength))
        var cookies = [cookie(value: self.keys.cookieValue(for: session), maxAge: Int(sessionLength))]
        if studio.several, let first = apps.first { cookies.append(appCookie(apps.contains(app) ? app : first)) }
        return ConsolePage.redirect(to: "/console/dashboard", setting: cookies)
    }

    /// Puts the configuration's operators into the ledger at start, each only when the ledger has no operator of
    /// that name (what an admin changed in the console stays), with their configured role in every app of `apps`
    /// (a studio's served apps: the configuration names one role per operator).
    static func seed(
        _ operators: [String: (hash: PasswordHash, role: ConsoleRole)], apps: [String], store: any LedgerStore,
        now: Date
    ) async throws {
        for (name, entry) in operators.sorted(by: { $0.key < $1.key })
        where try await store.consoleOperator(name) == nil {
            let roles = Dictionary(uniqueKeysWithValues: apps.map { ($0, entry.role) })
            let person = ConsoleOperator(
                name: name, passwordHash: entry.hash.encoded, roles: roles, updatedAt: now)
            _ = try await store.addConsoleOperator(person, cause: "configuration", now: now)
        }
    }
}
