import Hummingbird
import Logging
import PurserCore

/// Establishes who is calling from a request's headers. Two built-ins: `JWTAuthenticator` for production and
/// `DevelopmentAuthenticator` (an `X-Purser-User` header) that must be switched on explicitly.
public protocol Authenticator: Sendable {
    /// The user, or an `APIError` with status 401 and a stable code.
    func authenticate(_ headers: HTTPFields) async throws(APIError) -> UserID
    /// A line for the start-up log that says how users are authenticated.
    var announcement: String { get }
}

/// Authenticates every `/v1` request and stores the user in the context, and in its log's metadata as `user_id`.
struct AuthenticationMiddleware: RouterMiddleware {
    typealias Context = PurserRequestContext
    let authenticator: any Authenticator

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        var context = context
        let user = try await authenticator.authenticate(request.headers)
        context.user = user
        context.logger[metadataKey: "user_id"] = .string(user.rawValue)
        return try await next(request, context)
    }
}
