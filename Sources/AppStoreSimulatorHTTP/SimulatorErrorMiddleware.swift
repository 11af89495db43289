import AppStoreSimulator
import Foundation
import Hummingbird

/// The one place the simulator's control API maps `SimulatorError` codes to HTTP: a status per code and the body
/// `{"error": {"code", "message"}}`.
struct SimulatorErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as SimulatorError {
            return Self.response(for: error)
        }
    }

    static func status(of code: SimulatorError.Code) -> HTTPResponse.Status {
        switch code {
        case .invalidRequest: .badRequest
        case .notFound: .notFound
        case .conflict: .conflict
        default: .internalServerError
        }
    }

    static func response(for error: SimulatorError) -> Response {
        let body =
            (try? JSONEncoder().encode(ErrorBody(error: .init(code: "\(error.code)", message: error.message))))
            ?? Data()
        return Response(
            status: status(of: error.code), headers: [.contentType: "application/json"],
            body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }
}

/// `{"error": {"code", "message"}}`.
private struct ErrorBody: Encodable {
    struct Detail: Encodable {
        var code: String
        var message: String
    }
    var error: Detail
}
