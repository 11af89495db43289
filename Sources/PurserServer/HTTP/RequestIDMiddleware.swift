import HTTPTypes
import Hummingbird
import Logging

/// Gives every request an id, answered in every response's `X-Request-Id` and carried by every line the request logs
/// as `request_id` (also Hummingbird's `hb.request.id`, so that the context's `id` is the same). The id is the
/// request's own `X-Request-Id` only when its peer is a trusted proxy (`http.trustedProxies`, the trust that
/// `X-Forwarded-For` gets) and the value is 1 to 128 visible ASCII characters; otherwise it is a new one, so no client
/// can put its own text, or another request's id, in the log. The outermost middleware: errors are answers by then.
struct RequestIDMiddleware: RouterMiddleware {
    typealias Context = PurserRequestContext
    static var header: HTTPField.Name { HTTPField.Name("X-Request-Id")! }

    /// Whose `X-Request-Id` is kept.
    let proxies: TrustedProxies

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        var context = context
        let id = Self.id(
            offered: request.headers[Self.header], peer: context.remoteAddress?.ipAddress, proxies: proxies,
            generated: context.id)
        context.logger[metadataKey: "request_id"] = .string(id)
        context.logger[metadataKey: "hb.request.id"] = .string(id)
        var response = try await next(request, context)
        response.headers[Self.header] = id
        return response
    }

    /// The request's id: `offered` when `peer` is a trusted proxy and it is 1 to 128 characters from `!` to `~`
    /// (several headers arrive joined by ", ", so they are refused), else `generated`.
    static func id(offered: String?, peer: String?, proxies: TrustedProxies, generated: String) -> String {
        guard let offered, let peer, proxies.contains(peer), (1...128).contains(offered.utf8.count),
            offered.utf8.allSatisfy({ (0x21...0x7E).contains($0) })
        else { return generated }
        return offered
    }
}
