import Hummingbird
import Logging
import NIOCore
import PurserCore

/// The request context of Purser's routes: Hummingbird's core storage plus the authenticated user.
public struct PurserRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// Set by `AuthenticationMiddleware` on `/v1` routes.
    public var user: UserID?
    /// Set by `AdminAuthenticationMiddleware` on `/admin/v1` routes: the key (or legacy token) and what it may do.
    var admin: AdminCaller?
    /// The client's address (the console's sign-in throttle counts failures per address).
    public let remoteAddress: SocketAddress?

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
    }

    /// Bodies above this are refused with `body_too_large` before they are read in full.
    public var maxUploadSize: Int { 1024 * 1024 }

    /// The authenticated user; the middleware guarantees it on `/v1` routes.
    func requireUser() throws -> UserID {
        guard let user else { throw APIError.unauthenticated }
        return user
    }
}
