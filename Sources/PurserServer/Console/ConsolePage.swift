import Foundation
import HTTPTypes
import Hummingbird
import Mustache
import PurserStorage

/// One rendered console page: the template's context with the words of the visitor's language, the session's
/// operator and CSRF token, and the headers every console answer carries (no caching, no framing, no foreign forms).
struct ConsolePage {
    var template: String
    var status: HTTPResponse.Status = .ok
    var values: [String: Any] = [:]

    static let securityHeaders: HTTPFields = [
        .contentType: "text/html; charset=utf-8", .cacheControl: "no-store",
        HTTPField.Name("X-Frame-Options")!: "DENY", HTTPField.Name("X-Content-Type-Options")!: "nosniff",
        HTTPField.Name("Content-Security-Policy")!:
            "default-src 'self'; script-src 'none'; frame-ancestors 'none'; form-action 'self'",
        HTTPField.Name("Referrer-Policy")!: "same-origin",
    ]

    func response(language: String, signedIn: ConsoleRoutes.SignedIn?, path: String) -> Response {
        var context = values
        context["t"] = ConsoleText.table(language)
        context["path"] = path
        if let signedIn {
            context["signedIn"] = true
            context["operator"] = signedIn.session.operatorName
            context["csrf"] = signedIn.csrf
            context["role"] = signedIn.role?.rawValue ?? "—"
            if signedIn.studio {
                // The switcher: the apps the operator may see, this page's marked.
                context["studio"] = true
                context["switcher"] = signedIn.apps.map {
                    ["app": $0, "link": ConsoleStudio.switchPath($0), "current": $0 == signedIn.app] as [String: Any]
                }
            }
            // What the role may do: the forms a role may not post are not drawn (the server refuses them anyway).
            if signedIn.may(.support) { context["canSupport"] = true }
            if signedIn.may(.admin) { context["canAdmin"] = true }
        }
        let html = ConsoleTemplates.library.render(context, withTemplate: template) ?? ""
        return Response(
            status: status, headers: Self.securityHeaders, body: .init(byteBuffer: ByteBuffer(string: html)))
    }

    /// A 303 to `location` (after a form, or to the sign-in page), with cookies to set.
    static func redirect(to location: String, setting cookies: [String] = []) -> Response {
        var headers: HTTPFields = [.location: location, .cacheControl: "no-store"]
        for cookie in cookies { headers.append(HTTPField(name: .setCookie, value: cookie)) }
        return Response(status: .seeOther, headers: headers)
    }
}
