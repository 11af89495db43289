import Foundation
import Hummingbird

/// JSON responses with one encoder setup for the whole API: ISO 8601 dates, sorted keys.
enum JSONResponse {
    static func make(_ value: some Encodable, status: HTTPResponse.Status = .ok) throws -> Response {
        Response(
            status: status, headers: [.contentType: "application/json"],
            body: .init(byteBuffer: ByteBuffer(bytes: try encoder.encode(value))))
    }

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()
}
