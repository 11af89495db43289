import Foundation
import Hummingbird
import PurserCore

extension Request {
    /// The most a JSON body may hold, but a StoreKit 1 receipt's or Apple's notification's (`context.maxUploadSize`):
    /// every other body of the API fits in a few kilobytes (a wallet change at its largest, 100 currencies, a 500-
    /// character reason and 4 KB of metadata, is under 16 KiB), and the work a body costs before it is refused
    /// (parsing, counting keys) grows with its size.
    static let jsonLimit = 64 * 1024

    /// Reads and decodes a JSON body of at most `limit` bytes (`jsonLimit` unless a route takes more), mapping every
    /// failure to a stable 4xx: `unsupported_media_type` (415: the `Content-Type` is missing or not JSON),
    /// `empty_body`, `body_too_large` (413), `malformed_json`.
    func decodeJSON<T: Decodable>(_ type: T.Type, context: some RequestContext, limit: Int = jsonLimit)
        async throws -> T
    {
        try Self.decode(type, from: try await jsonBody(context: context, limit: limit))
    }

    /// The body's bytes, once its `Content-Type` says JSON and it is neither empty nor larger than `limit` (the
    /// errors of `decodeJSON`), for a route that reads more of it than one `Decodable` does.
    func jsonBody(context: some RequestContext, limit: Int = jsonLimit) async throws -> Data {
        guard Self.isJSON(contentType: headers[.contentType]) else { throw APIError.unsupportedMediaType }
        let limit = min(limit, context.maxUploadSize)
        let buffer: ByteBuffer
        do {
            buffer = try await self.body.collect(upTo: limit)
        } catch let error as any HTTPResponseError where error.status == .contentTooLarge {
            throw APIError.bodyTooLarge(limit: limit)
        }
        guard buffer.readableBytes > 0 else { throw APIError.emptyBody }
        return Data(buffer.readableBytesView)
    }

    /// Decodes a JSON body read by `jsonBody`. Text that is not JSON, or not an object, is a 400 `malformed_json`;
    /// valid JSON whose field has the wrong type or a number out of range (`9223372036854775808`, `-1.5`, `null`) is
    /// that field's own code where it has one (`amounts`: `invalid_amounts`, `quantity`: `invalid_quantity`,
    /// `expiresInSeconds`: `invalid_expiry`), else `malformed_json`, with a message naming the field.
    static func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        do {
            return try JSONDecoder().decode(T.self, from: data)
        } catch let DecodingError.keyNotFound(key, context) {
            throw fieldError(context.codingPath + [key], "is missing")
        } catch let DecodingError.typeMismatch(_, context) where context.codingPath.isEmpty {
            throw APIError.malformedJSON("the body must be a JSON object")
        } catch let DecodingError.typeMismatch(expected, context) {
            throw fieldError(context.codingPath, "is not \(Self.describe(expected))")
        } catch let DecodingError.valueNotFound(expected, context) where !context.codingPath.isEmpty {
            throw fieldError(context.codingPath, "is null, not \(Self.describe(expected))")
        } catch let DecodingError.dataCorrupted(context) where !context.codingPath.isEmpty {
            // Valid JSON the field's type cannot hold: a number beyond Int64, a fraction for an integer.
            throw fieldError(context.codingPath, "is out of range or not an integer")
        } catch {
            // Foundation's decoder calls a number no integer type can hold "not valid JSON", without a path: find it.
            if let path = Self.unrepresentableNumber(in: data) {
                throw fieldError(path, "is not an integer within ±\(Int64.max)")
            }
            throw APIError.malformedJSON("the body is not valid JSON")
        }
    }

    /// The path of the first number (keys in order) of valid JSON `data` that `Int64` cannot hold exactly: beyond
    /// its range, a fraction, or an exponent too large; `nil` when `data` is not JSON or holds no such number.
    static func unrepresentableNumber(in data: Data) -> [any CodingKey]? {
        guard let object = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) else {
            return nil
        }
        func find(_ value: Any, _ path: [any CodingKey]) -> [any CodingKey]? {
            if let object = value as? [String: Any] {
                for key in object.keys.sorted() {
                    if let found = find(object[key] as Any, path + [JSONPathKey(key)]) { return found }
                }
            } else if let array = value as? [Any] {
                for (index, element) in array.enumerated() {
                    if let found = find(element, path + [JSONPathKey(index)]) { return found }
                }
            } else if let number = value as? NSNumber, !(value is Bool), Int64(exactly: number) == nil {
                return path
            }
            return nil
        }
        return find(object, [])
    }

    /// The codes of fields that have their own (see `decode`).
    static let fieldCodes: [String: ServiceError.Code] = [
        "amounts": .invalidAmounts, "quantity": .invalidQuantity, "expiresInSeconds": .invalidExpiry,
        "expiresInDays": .invalidExpiry,
    ]

    /// The error for the field at `path`: its own code, or `malformed_json`, naming it (cut to 100 characters).
    private static func fieldError(_ path: [any CodingKey], _ problem: String) -> any Error {
        let name = path.map(\.stringValue).joined(separator: ".").echoed
        let message = "the body is JSON, but the field \(name) \(problem)"
        guard let first = path.first?.stringValue, let code = fieldCodes[first] else {
            return APIError.malformedJSON(message)
        }
        return ServiceError(code, message)
    }

    /// What a field of `type` holds, in words.
    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is Int.Type, is Int64.Type, is Int32.Type: "an integer"
        case is String.Type: "a string"
        case is Bool.Type: "true or false"
        case is Double.Type: "a number"
        default: "of the expected type"
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

/// A key of a path into JSON: an object's key, or an array's index.
private struct JSONPathKey: CodingKey {
    var stringValue: String
    var intValue: Int?
    init(_ key: String) { stringValue = key }
    init(_ index: Int) {
        stringValue = String(index)
        intValue = index
    }
    init?(stringValue: String) { self.init(stringValue) }
    init?(intValue: Int) { self.init(intValue) }
}
