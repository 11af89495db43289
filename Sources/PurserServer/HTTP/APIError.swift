import Foundation
import Hummingbird
import PurserCore

/// An HTTP API failure: a status and a stable `code`, answered as `{"error": {"code", "message"}}`.
/// `message` is safe to show to a client; it never holds secrets or internal details.
public struct APIError: Error, HTTPResponseError, CustomStringConvertible {
    public var status: HTTPResponse.Status
    public var code: String
    public var message: String
    /// Fields the answer carries besides `Content-Type`, e.g. `Allow` on a 405.
    public var headers: HTTPFields

    public init(_ status: HTTPResponse.Status, code: String, _ message: String, headers: HTTPFields = [:]) {
        self.status = status
        self.code = code
        self.message = message
        self.headers = headers
    }

    public var description: String { "\(status.code) \(code): \(message)" }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        let body = try JSONEncoder().encode(APIErrorResponse(code: code, message: message))
        var headers = self.headers
        headers[.contentType] = "application/json"
        if status == .unauthorized { headers[.wwwAuthenticate] = "Bearer" }
        if status == .serviceUnavailable { headers[.retryAfter] = "1" }
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }

    static func malformedJSON(_ detail: String) -> APIError { APIError(.badRequest, code: "malformed_json", detail) }
    static let emptyBody = APIError(.badRequest, code: "empty_body", "the request needs a JSON body")
    static func bodyTooLarge(limit: Int) -> APIError {
        APIError(.contentTooLarge, code: "body_too_large", "the body is larger than \(limit) bytes")
    }
    static let notFound = APIError(.notFound, code: "not_found", "no such resource")
    static let unsupportedMediaType = APIError(
        .unsupportedMediaType, code: "unsupported_media_type",
        "the body must be JSON: send Content-Type: application/json")
    /// A known path asked with a method it does not have: 405 with `Allow` listing the ones it has (RFC 9110 §15.5.6).
    static func methodNotAllowed(_ allowed: [HTTPRequest.Method]) -> APIError {
        let list = allowed.map(\.rawValue).joined(separator: ", ")
        return APIError(
            .methodNotAllowed, code: "method_not_allowed", "this path answers \(list)",
            headers: [.allow: list])
    }
    static let unauthenticated = APIError(.unauthorized, code: "unauthenticated", "a valid bearer token is required")
}
