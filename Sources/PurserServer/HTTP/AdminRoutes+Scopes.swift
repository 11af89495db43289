import HTTPTypes
import Hummingbird

extension AdminRoutes {
    /// Adds an admin route that a caller may use with `scope`, for this deployment's app unless `ofApp` is false (the
    /// keys' routes belong to no app); `nil`: the handler asks for its scope once it has read the body. Before the
    /// handler runs, a key of other apps gets 404 and a key without the scope 403 `forbidden_scope`.
    func on<Output: ResponseGenerator>(
        _ admin: RouterGroup<PurserRequestContext>, _ method: HTTPRequest.Method, _ path: String,
        _ scope: APIKeyScope?, ofApp: Bool = true, endpoints: inout EndpointTable,
        use handler: @escaping @Sendable (Request, PurserRequestContext) async throws -> Output
    ) {
        let app = ofApp ? self.app : nil
        admin.on(method, path, under: "/admin/v1", recordingIn: &endpoints) { request, context in
            try Self.caller(context).authorize(scope, app: app)
            return try await handler(request, context)
        }
    }

    /// The authenticated caller; the middleware guarantees one on every admin route.
    static func caller(_ context: PurserRequestContext) throws -> AdminCaller {
        guard let caller = context.admin else { throw APIError.unauthenticated }
        return caller
    }
}
