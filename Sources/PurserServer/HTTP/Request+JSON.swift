import Foundation
import Hummingbird

extension Request {
    /// Reads and decodes a JSON body, mapping every failure to a stable 4xx: `unsupported_media_type` (415: the
    /// `Content-Type` is missing or not JSON), `empty_body`, `body_too_large`, `malformed_json`.
    func decodeJSON<T: Decodable>(_ type: T.Type, context: some RequestContext) async throws -> T {
        try Self.decode(type, from: try await jsonBody(context: context))
    }

    /// The body's bytes, once its `Content-Type` says JSON and it is neither empty nor too large (the errors of
    /// `decodeJSON`), for a route that reads more of it than one `Decodable` does.
    func jsonBody(context: some RequestContext) async throws -> Data {
        guard Self.isJSON(contentType: headers[.contentType]) else { throw APIError.unsupportedMediaType }
        let buffer: ByteBuffer
        do {
            buffer = try await self.body.collect(upTo: context.maxUploadSize)
        } catch let error as any HTTPResponseError where error.status == .contentTooLarge {
            throw APIError.bodyTooLarge(limit: context.maxUploadSize)
        }
        guard buffer.readableBytes > 0 else { throw APIError.emptyBody }
        return Data(buffer.readableBytesView)
    }

    /// Decodes a JSON body read by `jsonBody`, mapping every failure to a stable 400 `malformed_json`.
    static func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        do {
            return try JSONDecoder().decode(T.self, from: data)
        } catch let DecodingError.keyNotFound(key, _) {
            throw APIError.malformedJSON("the field \(key.stringValue) is missing")
        } catch let DecodingError.typeMismatch(_, context) where context.codingPath.isEmpty {
            throw APIError.malformedJSON("the body must be a JSON object")
        } catch let DecodingError.typeMismatch(_, context) {
            throw APIError.malformedJSON(
                "a field has the wrong type at \(context.codingPath.map(\.stringValue).joined(separator: "."))")
        } catch {
            throw APIError.malformedJSON("the body is not valid JSON")
        }
    }

    /// Whether a `Content-Type` names JSON: `application/json` or a `+json` type, with any parameters (`charset`).
    static func isJSON(contentType: String?) -> Bool {
        guard let contentType else { return false }
        let type = contentType.split(separator: ";", maxSplits: 1).first.map {
            $0.trimmingCharacters(in: .whitespaces).lowercased()
        }
        guard let type, type.hasPrefix("application/") else { return false }
        return type == "application/json" || type.hasSuffix("+json")
    }
}
