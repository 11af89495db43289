import Foundation

/// Any JSON value a caller attaches (a wallet transaction's `metadata`), kept as canonical JSON: keys sorted, so the
/// same metadata sent twice is the same text and an idempotent replay compares equal.
struct JSONObject: Decodable, Sendable {
    /// The value as canonical JSON.
    let canonical: String
    /// Whether the value is a JSON object (metadata must be one).
    let isObject: Bool

    private indirect enum Value: Encodable {
        case null
        case bool(Bool)
        case number(Double)
        case string(String)
        case array([Value])
        case object([String: Value])

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .null: try container.encodeNil()
            case .bool(let value): try container.encode(value)
            case .number(let value): try container.encode(value)
            case .string(let value): try container.encode(value)
            case .array(let value): try container.encode(value)
            case .object(let value): try container.encode(value)
            }
        }

        static func decode(_ container: any SingleValueDecodingContainer, from decoder: any Decoder) throws -> Value {
            if container.decodeNil() { return .null }
            if let value = try? container.decode(Bool.self) { return .bool(value) }
            if let value = try? container.decode(Double.self) { return .number(value) }
            if let value = try? container.decode(String.self) { return .string(value) }
            if let value = try? container.decode([Wrapped].self) { return .array(value.map(\.value)) }
            return .object(try container.decode([String: Wrapped].self).mapValues(\.value))
        }
    }

    private struct Wrapped: Decodable {
        let value: Value
        init(from decoder: any Decoder) throws {
            value = try Value.decode(try decoder.singleValueContainer(), from: decoder)
        }
    }

    init(from decoder: any Decoder) throws {
        let value = try Value.decode(try decoder.singleValueContainer(), from: decoder)
        if case .object = value { isObject = true } else { isObject = false }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        canonical = String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}
