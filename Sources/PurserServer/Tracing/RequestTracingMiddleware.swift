import Hummingbird

/// Hummingbird's `TracingMiddleware` for every request but the probes (`/health`, `/ready`): a load balancer asks
/// those every few seconds, and a trace of each would bury the purchases' traces and fill the exporter's queue.
struct RequestTracingMiddleware: RouterMiddleware {
    typealias Context = PurserRequestContext
    static let untraced: Set<String> = ["/health", "/ready"]
    let tracing: TracingMiddleware<PurserRequestContext>

    init() {
        // The console's query parameters that name users are recorded redacted.
        tracing = TracingMiddleware(
            recordingHeaders: [AppDispatchMiddleware.header], redactingQueryParameters: ["q", "back", "id"])
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        if Self.untraced.contains(request.uri.path) { return try await next(request, context) }
        return try await tracing.handle(request, context: context, next: next)
    }
}
