import HTTPTypes
import Hummingbird

/// The API's paths and the methods each answers, recorded as the routes are added (`on(_:_:recordingIn:)`), so that
/// a known path asked with another method answers 405 with `Allow` (RFC 9110 §15.5.6) instead of 404.
struct EndpointTable: Sendable {
    /// A path template such as `/v1/orders/{id}`, split into segments; `nil` is a parameter.
    private var endpoints: [(segments: [String?], methods: [HTTPRequest.Method])] = []

    /// Records that `path` (a template, `{name}` for a parameter) answers `method`.
    mutating func add(_ method: HTTPRequest.Method, _ path: String) {
        let segments = Self.segments(path).map { $0.hasPrefix("{") || $0.hasPrefix(":") ? nil : $0 }
        if let index = endpoints.firstIndex(where: { $0.segments == segments }) {
            if !endpoints[index].methods.contains(method) { endpoints[index].methods.append(method) }
        } else {
            endpoints.append((segments, [method]))
        }
    }

    /// The methods a concrete request path answers, in the order they were added; empty for an unknown path.
    func methods(forPath path: String) -> [HTTPRequest.Method] {
        let asked = Self.segments(path)
        let matching = endpoints.filter { endpoint in
            endpoint.segments.count == asked.count
                && zip(endpoint.segments, asked).allSatisfy { template, segment in
                    template.map { $0 == segment } ?? true
                }
        }
        // A literal path wins over a template of the same length (`/v1/orders/x` vs `/v1/orders/{id}`).
        let best = matching.max { lhs, rhs in
            lhs.segments.filter { $0 != nil }.count < rhs.segments.filter { $0 != nil }.count
        }
        return best?.methods ?? []
    }

    private static func segments(_ path: String) -> [String] {
        path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
    }
}

/// Answers 405 `method_not_allowed` with `Allow` when no route matched but the path is a known one. Add it to the
/// router after every route: a router's middleware wraps only the routes added after it, and the not-found answer,
/// which is the only one this changes.
struct MethodNotAllowedMiddleware<Context: RequestContext>: RouterMiddleware {
    let endpoints: EndpointTable

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        do {
            return try await next(request, context)
        } catch let error as HTTPError where error.status == .notFound {
            let allowed = endpoints.methods(forPath: request.uri.path)
            guard !allowed.isEmpty, !allowed.contains(request.method) else { throw error }
            throw APIError.methodNotAllowed(allowed)
        }
    }
}

extension RouterMethods {
    /// Adds a route and records it in `table` under its full path: `prefix` (the group's path) and `path`.
    @discardableResult
    func on(
        _ method: HTTPRequest.Method, _ path: String, under prefix: String = "", recordingIn table: inout EndpointTable,
        use handler: @escaping @Sendable (Request, Context) async throws -> some ResponseGenerator
    ) -> Self {
        table.add(method, prefix + "/" + path)
        return on(RouterPath(path), method: method, use: handler)
    }
}
