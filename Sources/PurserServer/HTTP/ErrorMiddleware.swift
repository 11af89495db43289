import Hummingbird
import Logging
import PurserStorage

/// Turns every error into the JSON error shape with a stable code. Unexpected errors become a logged 500
/// `internal` whose message reveals nothing.
/// A ledger outage is logged once per episode (`LedgerOutageLog`).
struct ErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    let outage: LedgerOutageLog

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        do {
            let response = try await next(request, context)
            if Self.needsLedger(request.uri.path) { outage.served(logger: context.logger) }
            return response
        } catch let error as APIError {
            throw error
        } catch let error as ServiceError {
            throw APIError(error)
        } catch let error as StorageError {
            if error.code == .unavailable {
                outage.refused(error, logger: context.logger)
            } else {
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

    /// Purser's own API and the admin API read or write the ledger; `/health` and the simulator's routes do not.
    static func needsLedger(_ path: String) -> Bool {
        path.hasPrefix("/v1/") || path.hasPrefix("/admin/")
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
