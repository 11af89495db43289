import AppStoreVerification
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import PurserCore

/// Sends each request to the app it belongs to, in a studio (`PurserStudio`): `/v1` and `/admin/v1` by the
/// `X-Purser-App: <bundleId>` header (required with several apps: 400 `app_required`; an app this Purser does not
/// serve: 404 `unknown_app`, before anything is read or written), Apple's notifications by the bundle their signed
/// payload names (one URL for every app; the app's own checks then verify it; a bundle no app serves is acknowledged
/// and ignored by the first app, `NotificationService`), the console (`/console`) by the
/// `purser_console_app` cookie its switcher sets (`ConsoleStudio`; without it, or naming an app not served: the first
/// app, and each app's console then answers 404 for an operator without a role there). API keys, health and the
/// hosted App Store belong to the first app. Sets the request's metrics `app` label and its log's `app` metadata.
///
/// The dispatch reads the route the router matched (`/admin/v1/wallets/{userId}`, the context's `endpointPath`), never
/// the raw path: Hummingbird's trie router skips empty segments, so `//admin/v1/…` or `/v1//wallet` reach the same
/// route as the canonical path and meet the same dispatch. A segment `.`, `..`, `%2F` or with a trailing dot matches
/// no literal segment of any route, or is a parameter's value, which the route checks as any other. A request no
/// route matches is the first app's 404 (or 405), with nothing read.
struct AppDispatchMiddleware: RouterMiddleware {
    typealias Context = PurserRequestContext
    static var header: HTTPField.Name { HTTPField.Name("X-Purser-App")! }

    /// The first app, whose routes are the router's own.
    let home: String
    /// Every other app's routes, by bundle id.
    let others: [String: RouterResponder<Context>]

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        var request = request
        var context = context
        let app = try await self.app(of: &request, context: context)
        context.logger[metadataKey: "app"] = .string(app)
        return try await PurserMetrics.$app.withValue(app) {
            guard app != home, let responder = others[app] else { return try await next(request, context) }
            return try await responder.respond(to: request, context: context)
        }
    }

    /// The bundle id `request` belongs to (reading a notification's body into memory to find it).
    func app(of request: inout Request, context: Context) async throws -> String {
        // No route matched: the first app answers 404 (or 405), whatever the request names.
        guard let path = context.endpointPath else { return home }
        if path == "/v1/appstore/notifications" {
            guard !others.isEmpty else { return home }
            let body = try await request.collectBody(upTo: context.maxUploadSize)
            return Self.notificationBundle(Data(body.readableBytesView)).flatMap { others[$0] == nil ? nil : $0 }
                ?? home
        }
        if path == "/console" || path.hasPrefix("/console/") {
            guard !others.isEmpty, let named = request.cookies[ConsoleStudio.cookieName]?.value,
                others[named] != nil
            else { return home }
            return named
        }
        guard path.hasPrefix("/v1/") || (path.hasPrefix("/admin/v1/") && !path.hasPrefix("/admin/v1/keys")) else {
            return home
        }
        guard let named = request.headers[Self.header] else {
            guard others.isEmpty else {
                throw ServiceError(
                    .appRequired,
                    "this Purser serves several apps: name yours with X-Purser-App (one of \(served.joined(separator: ", ")))"
                )
            }
            return home
        }
        guard named == home || others[named] != nil else {
            throw ServiceError(.unknownApp, "this Purser does not serve the app \(named.echoed)")
        }
        return named
    }

    /// Every bundle id served, the first app's first.
    var served: [String] { [home] + others.keys.sorted() }

    /// The bundle id a notification's signed payload names (`data.bundleId`, `summary.bundleId` or
    /// `appData.bundleId`), read without checking the signature: it only picks the app whose verifier then checks
    /// everything. A bundle no app serves goes to the first app, which acknowledges and ignores it.
    static func notificationBundle(_ body: Data) -> String? {
        struct Body: Decodable { var signedPayload: String }
        struct Payload: Decodable {
            struct Part: Decodable { var bundleId: String? }
            var data: Part?
            var summary: Part?
            var appData: Part?
        }
        guard let jws = try? JSONDecoder().decode(Body.self, from: body) else { return nil }
        let parts = jws.signedPayload.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else { return nil }
        guard let data = Base64URL.decode(parts[1].utf8),
            let payload = try? JSONDecoder().decode(Payload.self, from: data)
        else { return nil }
        return payload.data?.bundleId ?? payload.summary?.bundleId ?? payload.appData?.bundleId
    }
}
