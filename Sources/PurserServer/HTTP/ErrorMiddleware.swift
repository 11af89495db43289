import Hummingbird
import Logging
import PurserStorage

/// Turns every error into the JSON error shape with a stable code. Unexpected errors become a logged 500
/// `internal` whose message reveals nothing.
struct ErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        do {
            return try await next(request, context)
        } catch let error as APIError {
            throw error
        } catch let error as ServiceError {
            throw APIError(error)
        } catch let error as StorageError {
            if error.code != .unavailable {
                context.logger.error("ledger failure", metadata: ["error": "\(String(reflecting: error))"])
            }
            throw APIError(error)
        } catch let error as any HTTPResponseError {
            throw APIError(error.status, code: Self.code(for: error.status), error.status.reasonPhrase)
        } catch {
            context.logger.error("unexpected error", metadata: ["error": "\(String(reflecting: error))"])
            throw APIError(.internalServerError, code: "internal", "the server could not complete the request")
        }
    }

    static func code(for status: HTTPResponse.Status) -> String {
        switch status {
        case .notFound: "not_found"
        case .methodNotAllowed: "method_not_allowed"
        case .unsupportedMediaType: "unsupported_media_type"
        case .contentTooLarge: "body_too_large"
        case .unauthorized: "unauthenticated"
        case .badRequest: "bad_request"
        default: status.code < 500 ? "client_error" : "internal"
        }
    }
}
