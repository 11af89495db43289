import HTTPTypes
import Hummingbird

/// Checks the app a client names with `X-Purser-App: <bundleId>` (the SDK sends its bundle identifier): one this
/// Purser does not serve is 404 `unknown_app` before anything is read or written. Without the header the request is
/// the configured app's, as before apps had a name on the wire.
struct AppHeaderMiddleware<Context: RequestContext>: RouterMiddleware {
    static var header: HTTPField.Name { HTTPField.Name("X-Purser-App")! }
    /// The bundle ids this Purser serves.
    let apps: [String]

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        if let app = request.headers[Self.header], !apps.contains(app) {
            throw ServiceError(.unknownApp, "this Purser does not serve the app \(app.prefix(255))")
        }
        return try await next(request, context)
    }
}
