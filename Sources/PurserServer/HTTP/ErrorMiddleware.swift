import Hummingbird
import Logging
import PurserCore
import PurserStorage

/// Turns every error into the JSON error shape with a stable code, answered as a response (not rethrown), so the
/// metrics middleware outside it counts and times each error under its real status. Unexpected errors become a
/// logged 500 `internal` whose message reveals nothing. A ledger outage is logged once per episode (`LedgerOutageLog`).
struct ErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    let outage: LedgerOutageLog

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        do {
            let response = try await next(request, context)
            if Self.needsLedger(request.uri.path) { outage.served(logger: context.logger) }
            return response
        } catch {
            return try apiError(for: error, logger: context.logger).response(from: request, context: context)
        }
    }

    /// The answer for `error`: Purser's own errors keep their status and code; anything else is a 500 `internal`.
    private func apiError(for error: any Error, logger: Logger) -> APIError {
        switch error {
        case let error as APIError:
            return error
        case let error as ServiceError:
            return APIError(error)
        case let error as AmountError:
            return APIError(ServiceError(amount: error))
        case let error as StorageError:
            if error.code == .unavailable {
                outage.refused(error, logger: logger)
            } else {
                logger.error("ledger failure", metadata: ["error": "\(String(reflecting: error))"])
            }
            return APIError(error)
        case let error as any HTTPResponseError:
            return APIError(error.status, code: Self.code(for: error.status), error.status.reasonPhrase)
        default:
            logger.error("unexpected error", metadata: ["error": "\(String(reflecting: error))"])
            return APIError(.internalServerError, code: "internal", "the server could not complete the request")
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
