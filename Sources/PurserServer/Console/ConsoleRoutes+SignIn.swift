import Foundation
import HTTPTypes
import Hummingbird
import PurserCore
import PurserStorage

extension ConsoleRoutes {
    /// The valid session of `request`, if any: signed, unexpired, and (but for the admin token's) of an operator the
    /// ledger holds now, enabled, with the session's generation and a role in `app`. One ledger read per request, so
    /// a disabled operator's next request on any replica is signed out.
    func signedIn(_ request: Request) async throws -> SignedIn? {
        guard let value = request.cookies[ConsoleSession.cookieName]?.value,
            let session = keys.session(fromCookie: value, now: now())
        else { return nil }
        let csrf = keys.csrfToken(forCookie: value)
        guard let generation = session.generation else {
            return SignedIn(session: session, csrf: csrf, cookie: value, role: .admin, person: nil)
        }
        guard let person = try await store.consoleOperator(session.operatorName), !person.disabled,
            person.generation == generation, let role = person.roles[app]
        else { return nil }
        return SignedIn(session: session, csrf: csrf, cookie: value, role: role, person: person)
    }

    /// Runs `body` for a signed-in operator whose role includes `role`; without a session, off to sign-in (the stale
    /// cookie cleared); with too small a role, 403 and a page that says so, whatever the request was.
    func signedIn(
        _ request: Request, as role: ConsoleRole, _ body: (SignedIn) async throws -> Response
    ) async throws -> Response {
        guard let signedIn = try await signedIn(request) else {
            let stale = request.cookies[ConsoleSession.cookieName] != nil
            return ConsolePage.redirect(to: "/console/sign-in", setting: stale ? [cookie(value: "", maxAge: 0)] : [])
        }
        guard signedIn.role.includes(role) else {
            let text = ConsoleText.table(language(request))
            return page("forbidden", status: .forbidden, ["error": text["forbidden"] ?? "", "needed": role.rawValue])
                .response(language: language(request), signedIn: signedIn, path: request.uri.path)
        }
        return try await body(signedIn)
    }

    func signIn(_ request: Request, context: PurserRequestContext) async throws -> Response {
        let form = try await Self.form(request, context: context)
        let name = (form["operator"] ?? "").trimmingCharacters(in: .whitespaces)
        let client = proxies.client(
            peer: context.remoteAddress?.ipAddress ?? "unknown", forwardedFor: request.headers[Self.forwardedFor])
        let text = ConsoleText.table(language(request))
        // The admin token is checked before the throttle: the team's own key is never locked out.
        if let token = form["token"], !token.isEmpty, ConstantTime.equal(token, adminToken) {
            return signedIn(as: name.isEmpty ? "admin" : name, generation: nil)
        }
        guard try await throttle.allows(name: name, address: client, now: now()) else {
            return page("sign-in", status: .tooManyRequests, ["error": text["tooManyAttempts"] ?? ""])
                .response(language: language(request), signedIn: nil, path: "/console/sign-in")
        }
        let person = name.isEmpty || name.count > 100 ? nil : try await store.consoleOperator(name)
        guard form["token"]?.isEmpty ?? true, let person, !person.disabled, person.roles[app] != nil,
            let hash = PasswordHash(encoded: person.passwordHash), let password = form["password"],
            password.count <= 200, hash.matches(password)
        else {
            try await throttle.recordFailure(name: name, address: client, now: now())
            return page("sign-in", status: .unauthorized, ["error": text["badCredentials"] ?? ""])
                .response(language: language(request), signedIn: nil, path: "/console/sign-in")
        }
        try await throttle.recordSuccess(name: name)
        return signedIn(as: name, generation: person.generation)
    }

    static let forwardedFor = HTTPField.Name("X-Forwarded-For")!

    /// A new session for `operatorName` at `generation`, set as the cookie, and off to the dashboard.
    private func signedIn(as operatorName: String, generation: Int64?) -> Response {
        let session = ConsoleSession(
            operatorName: operatorName, generation: generation, expires: now().addingTimeInterval(sessionLength))
        return ConsolePage.redirect(
            to: "/console/dashboard",
            setting: [cookie(value: self.keys.cookieValue(for: session), maxAge: Int(sessionLength))])
    }

    /// Puts the configuration's operators into the ledger at start, each only when the ledger has no operator of
    /// that name (what an admin changed in the console stays), with their role in `app`.
    static func seed(
        _ operators: [String: (hash: PasswordHash, role: ConsoleRole)], app: String, store: any LedgerStore,
        now: Date
    ) async throws {
        for (name, entry) in operators.sorted(by: { $0.key < $1.key })
        where try await store.consoleOperator(name) == nil {
            let person = ConsoleOperator(
                name: name, passwordHash: entry.hash.encoded, roles: [app: entry.role], updatedAt: now)
            _ = try await store.addConsoleOperator(person, cause: "configuration", now: now)
        }
    }
}
