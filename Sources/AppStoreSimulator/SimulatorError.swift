import Foundation
import Hummingbird

/// A failed simulator request, answered as `{"error": {"code", "message"}}` with a matching HTTP status.
public struct SimulatorError: Error, HTTPResponseError, CustomStringConvertible {
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        public let description: String
        public let status: HTTPResponse.Status
        public static let invalidRequest = Code(description: "invalid_request", status: .badRequest)
        public static let notFound = Code(description: "not_found", status: .notFound)
        public static let conflict = Code(description: "conflict", status: .conflict)
        public static let `internal` = Code(description: "internal", status: .internalServerError)
    }

    public var code: Code
    public var message: String
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var status: HTTPResponse.Status { code.status }
    public var description: String { "\(code): \(message)" }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        let body = #"{"error":{"code":"\#(code)","message":\#(jsonString(message))}}"#
        return Response(status: status, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: body)))
    }

    private func jsonString(_ text: String) -> String {
        (try? String(decoding: JSONEncoder().encode(text), as: UTF8.self)) ?? "\"\""
    }
}
