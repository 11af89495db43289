import Foundation
import HTTPTypes
import Hummingbird
import PurserCore
import PurserStorage

extension ConsoleRoutes {
    /// An admin's page of operators, showing only what this admin may change: each operator with a role in an app
    /// the admin administers (or in none), with their role in every app the admin administers (this app alone in a
    /// single-app Purser); whether disabled, their own grant limits and a new password only for an operator the
    /// admin manages (`manages`). Forms to add one (with a role in this app), change a role in an app (or, in a
    /// studio, take it away: `none`), disable or enable, set a new password, set limits. Every change is an audit
    /// record (subject `operator`) with the cause `console by <admin>`.
    func operators(
        _ request: Request, signedIn: SignedIn, notice: String? = nil, error: String? = nil,
        status: HTTPResponse.Status = .ok
    ) async throws -> Response {
        let everyone = try await people.consoleOperators().filter { sees($0, signedIn) }
        let administered = studio.bundleIds.filter { administers($0, signedIn) }
        var values: [String: Any] = [
            "operators": everyone.map { person in
                var row: [String: Any] = [
                    "name": person.name, "appRoles": administered.map { roleForm(person, in: $0) },
                ]
                if manages(person, signedIn) {
                    row["account"] = [
                        "name": person.name, "disabled": person.disabled,
                        "perGrant": person.grantLimit.map(String.init) ?? "",
                        "perDay": person.grantLimitPerDay.map(String.init) ?? "",
                    ]
                }
                return row
            },
            "defaultPerGrant": grantLimits.perGrant, "defaultPerDay": grantLimits.perDay,
        ]
        if let notice { values["notice"] = notice }
        if let error { values["error"] = error }
        return page("operators", status: status, values).response(
            language: language(request), signedIn: signedIn, path: "/console/operators")
    }

    /// The role form of `person` in `app`: the role held and the choices (in a studio also `none`, which takes the
    /// role in that app away).
    private func roleForm(_ person: ConsoleOperator, in app: String) -> [String: Any] {
        let held = person.roles[app]
        var options: [[String: Any]] = ConsoleRole.allCases.map { ["value": $0.rawValue, "selected": held == $0] }
        if studio.several { options.append(["value": "none", "selected": held == nil]) }
        return ["app": app, "role": held?.rawValue ?? "—", "roles": options]
    }

    /// Adds an operator with a name, a password (hashed with scrypt here; only the hash is kept) and a role.
    func addOperator(_ request: Request, context: PurserRequestContext, _ signedIn: SignedIn) async throws
        -> Response
    {
        let form = try await Self.form(request, context: context)
        let text = ConsoleText.table(language(request))
        guard signedIn.accepts(form["csrf"]) else {
            return try await operators(request, signedIn: signedIn, error: text["formExpired"], status: .forbidden)
        }
        let name = (form["name"] ?? "").trimmingCharacters(in: .whitespaces)
        guard (1...100).contains(name.count), let role = form["role"].flatMap(ConsoleRole.init(rawValue:)),
            let password = Self.newPassword(form["password"])
        else {
            return try await operators(request, signedIn: signedIn, error: text["operatorInvalid"], status: .badRequest)
        }
        let person = ConsoleOperator(
            name: name, passwordHash: try await PasswordHash.made(password).encoded, roles: [app: role],
            updatedAt: now())
        guard try await people.addConsoleOperator(person, cause: cause(signedIn), now: now()) else {
            return try await operators(request, signedIn: signedIn, error: text["operatorExists"], status: .conflict)
        }
        return try await operators(request, signedIn: signedIn, notice: text["operatorSaved"])
    }

    /// One change to an operator (`change`: `role`, `disable`, `enable`, `password` or `limits`): a role in an app by
    /// an admin of that app, the rest by an admin who `manages` the operator. Disabling and a new password bump the
    /// operator's generation: their sessions end with their next request, on every replica.
    func changeOperator(_ request: Request, context: PurserRequestContext, _ signedIn: SignedIn) async throws
        -> Response
    {
        let form = try await Self.form(request, context: context)
        let text = ConsoleText.table(language(request))
        guard signedIn.accepts(form["csrf"]) else {
            return try await operators(request, signedIn: signedIn, error: text["formExpired"], status: .forbidden)
        }
        // A role is given in one app of the studio (`app`, default this one): one the admin may not see is 404, one
        // they see but do not administer 403.
        let target = form["app"].flatMap { $0.isEmpty ? nil : $0 } ?? app
        guard form["change"] != "role" || signedIn.apps.contains(target) else { return notFound(request, signedIn) }
        guard form["change"] != "role" || administers(target, signedIn) else {
            return try await operators(request, signedIn: signedIn, error: text["forbidden"], status: .forbidden)
        }
        guard let change = try await Self.change(form, app: target, mayTakeAway: studio.several) else {
            return try await operators(request, signedIn: signedIn, error: text["operatorInvalid"], status: .badRequest)
        }
        switch change {
        case .role: break
        case .disabled, .password, .limits:
            // The operator's account is every app's they have a role in: only an admin of all of them changes it.
            // An operator the page does not show is unknown, as one of no such name.
            guard let person = try await people.consoleOperator(form["name"] ?? ""), sees(person, signedIn) else {
                return try await operators(
                    request, signedIn: signedIn, error: text["operatorUnknown"], status: .notFound)
            }
            guard manages(person, signedIn) else {
                return try await operators(request, signedIn: signedIn, error: text["forbidden"], status: .forbidden)
            }
        }
        guard
            try await people.changeConsoleOperator(form["name"] ?? "", change, cause: cause(signedIn), now: now())
                != nil
        else {
            return try await operators(request, signedIn: signedIn, error: text["operatorUnknown"], status: .notFound)
        }
        return try await operators(request, signedIn: signedIn, notice: text["operatorSaved"])
    }

    /// Whether the signed-in admin manages roles in `app`: the admin token everywhere, an operator where they are
    /// `admin`.
    func administers(_ app: String, _ signedIn: SignedIn) -> Bool {
        guard let person = signedIn.person else { return true }
        return person.roles[app] == .admin
    }

    /// Whether the signed-in admin may change `person`'s password, state and limits, which hold in every app: the
    /// admin token always, an operator who administers every app of the studio where `person` has a role.
    func manages(_ person: ConsoleOperator, _ signedIn: SignedIn) -> Bool {
        studio.bundleIds.filter { person.roles[$0] != nil }.allSatisfy { administers($0, signedIn) }
    }

    /// Whether the Operators page shows `person` to the signed-in admin: when they have a role in an app the admin
    /// administers, or in no app of the studio (then any admin may give them one).
    func sees(_ person: ConsoleOperator, _ signedIn: SignedIn) -> Bool {
        let apps = studio.bundleIds.filter { person.roles[$0] != nil }
        return apps.isEmpty || apps.contains { administers($0, signedIn) }
    }

    /// The change a form asks for; `nil` when a field is missing or malformed. `mayTakeAway`: the role `none` takes
    /// the operator's role in `app` away (a studio's; the one app of a single-app Purser is never taken away).
    static func change(_ form: [String: String], app: String, mayTakeAway: Bool = false) async throws
        -> ConsoleOperator.Change?
    {
        func limit(_ key: String) -> Int64?? {
            let value = (form[key] ?? "").trimmingCharacters(in: .whitespaces)
            if value.isEmpty { return .some(nil) }
            return Int64(value).flatMap { $0 >= 0 ? .some($0) : nil }
        }
        switch form["change"] {
        case "role":
            if mayTakeAway, form["role"] == "none" { return .role(app: app, nil) }
            return form["role"].flatMap(ConsoleRole.init(rawValue:)).map { .role(app: app, $0) }
        case "disable": return .disabled(true)
        case "enable": return .disabled(false)
        case "password":
            guard let password = newPassword(form["password"]) else { return nil }
            return .password(try await PasswordHash.made(password).encoded)
        case "limits":
            guard let perGrant = limit("perGrant"), let perDay = limit("perDay") else { return nil }
            return .limits(perGrant: perGrant, perDay: perDay)
        default: return nil
        }
    }

    /// A new password of 10 to 200 characters.
    static func newPassword(_ value: String?) -> String? {
        guard let value, (10...200).contains(value.count) else { return nil }
        return value
    }

    func cause(_ signedIn: SignedIn) -> String { "console by \(signedIn.session.operatorName)" }
}
