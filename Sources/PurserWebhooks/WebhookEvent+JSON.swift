import Foundation

extension WebhookEvent {
    /// The body's JSON: sorted keys, no escaped slashes, dates in RFC 3339 with milliseconds in UTC
    /// (`2024-01-01T00:00:00.000Z`). Deterministic, so a body written once is the body signed on every retry.
    public static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(timestamp(date))
        }
        return encoder
    }

    /// Reads what `encoder` writes; timestamps with or without fractional seconds.
    public static var decoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let text = try decoder.singleValueContainer().decode(String.self)
            if let date = try? Self.timestampStyle.parse(text) {
                return Date(timeIntervalSince1970: (date.timeIntervalSince1970 * 1000).rounded() / 1000)
            }
            if let date = try? Date.ISO8601FormatStyle().parse(text) { return date }
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "not an RFC 3339 timestamp"))
        }
        return decoder
    }

    /// The exact bytes Purser posts for this event.
    public func body() throws -> Data { try Self.encoder.encode(self) }

    static let timestampStyle = Date.ISO8601FormatStyle(includingFractionalSeconds: true)

    /// `date` to the nearest millisecond, as `2024-01-01T00:00:00.123Z` (the formatter alone truncates, and a
    /// millisecond in binary floating point may lie just below itself).
    static func timestamp(_ date: Date) -> String {
        let millis = Int64((date.timeIntervalSince1970 * 1000).rounded())
        let (seconds, fraction) = (millis - (millis % 1000 + 1000) % 1000, (millis % 1000 + 1000) % 1000)
        let whole = Date(timeIntervalSince1970: TimeInterval(seconds / 1000)).formatted(Date.ISO8601FormatStyle())
        return whole.dropLast() + "." + String(String(fraction + 1000).dropFirst()) + "Z"
    }
}
