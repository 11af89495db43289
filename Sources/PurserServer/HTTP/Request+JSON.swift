import Foundation
import Hummingbird

extension Request {
    /// Reads and decodes a JSON body, mapping every failure to a stable 4xx: `empty_body`, `body_too_large`,
    /// `malformed_json`.
    func decodeJSON<T: Decodable>(_ type: T.Type, context: some RequestContext) async throws -> T {
        let buffer: ByteBuffer
        do {
            buffer = try await self.body.collect(upTo: context.maxUploadSize)
        } catch let error as any HTTPResponseError where error.status == .contentTooLarge {
            throw APIError.bodyTooLarge(limit: context.maxUploadSize)
        }
        guard buffer.readableBytes > 0 else { throw APIError.emptyBody }
        do {
            return try JSONDecoder().decode(T.self, from: Data(buffer.readableBytesView))
        } catch let DecodingError.keyNotFound(key, _) {
            throw APIError.malformedJSON("the field \(key.stringValue) is missing")
        } catch let DecodingError.typeMismatch(_, context) {
            throw APIError.malformedJSON(
                "a field has the wrong type at \(context.codingPath.map(\.stringValue).joined(separator: "."))")
        } catch {
            throw APIError.malformedJSON("the body is not valid JSON")
        }
    }
}
