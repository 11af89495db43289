import Foundation
import Logging
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A swift-log handler that writes each entry as one JSON object on one line (`log.format` `json`), for a machine to
/// read: `time` (RFC 3339, UTC, milliseconds), `level`, `message`, `label`, `source`, then the metadata, each value a
/// string: the well-known keys first (`request_id`, `trace_id`, `span_id`, `app`, `user_id`, `decision`,
/// `transaction_id`), then the others by name. The handler's own metadata, its `metadataProvider`'s (a tracer's
/// `trace_id` and `span_id`) and the entry's are merged, the entry's winning, as `StreamLogHandler` merges them.
///
/// Each value is written as the very text the text format prints for it (its `description`), escaped, so whatever
/// text mode keeps out of the log (every secret setting redacts itself, `SecretRedacting`) this keeps out too. A
/// line is always valid JSON: quotes, backslashes and control characters are escaped, and a Swift string holds no
/// invalid UTF-8 (bytes that were not UTF-8 became U+FFFD when the string was made).
public struct JSONLogHandler: LogHandler {
    /// The least level written (`serve --log-level` sets its logger's).
    public var logLevel: Logger.Level = .info
    /// The logger's own metadata, on every entry it writes.
    public var metadata: Logger.Metadata = [:]
    /// Asked at every entry for metadata of the moment (a tracer's `trace_id` and `span_id`).
    public var metadataProvider: Logger.MetadataProvider?
    /// The logger's label (`purser`, `Hummingbird`, …).
    let label: String
    /// Writes one finished line, its newline included.
    let output: @Sendable (String) -> Void

    /// A handler for the logger `label`; `output` receives each line (standard error by default).
    public init(
        label: String, metadataProvider: Logger.MetadataProvider?,
        output: @escaping @Sendable (String) -> Void = JSONLogHandler.standardError
    ) {
        self.label = label
        self.metadataProvider = metadataProvider
        self.output = output
    }

    /// One key of the logger's own metadata.
    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    /// Writes `event` as one line: the logger's metadata, the provider's, then the entry's (and its error's message
    /// and type), a later one winning a key.
    public func log(event: LogEvent) {
        var merged = metadata
        if let provided = metadataProvider?.get(), !provided.isEmpty { merged.merge(provided) { $1 } }
        if let explicit = event.metadata, !explicit.isEmpty { merged.merge(explicit) { $1 } }
        if let error = event.error {
            merged["error.message"] = "\(error)"
            merged["error.type"] = "\(String(reflecting: type(of: error)))"
        }
        output(
            Self.line(
                time: Date(), level: event.level, message: event.message.description, label: label,
                source: event.source, metadata: merged))
    }

    /// The metadata keys written first, in this order, when an entry has them.
    public static let wellKnownKeys = [
        "request_id", "trace_id", "span_id", "app", "user_id", "decision", "transaction_id",
    ]

    /// The keys of every line; metadata of the same name is written as `metadata.<name>`.
    static let reservedKeys: Set<String> = ["time", "level", "message", "label", "source"]

    /// One entry as a JSON object and a newline.
    static func line(
        time: Date, level: Logger.Level, message: String, label: String, source: String, metadata: Logger.Metadata
    ) -> String {
        var line = "{"
        var first = true
        func field(_ key: String, _ value: String) {
            if !first { line += "," }
            first = false
            line += "\""
            escape(key, into: &line)
            line += "\":\""
            escape(value, into: &line)
            line += "\""
        }
        field("time", timestamp(time))
        field("level", level.rawValue)
        field("message", message)
        field("label", label)
        field("source", source)
        let known = wellKnownKeys.filter { metadata[$0] != nil }
        let others = metadata.keys.filter { !wellKnownKeys.contains($0) }.sorted()
        for key in known + others {
            guard let value = metadata[key] else { continue }
            field(reservedKeys.contains(key) ? "metadata.\(key)" : key, value.description)
        }
        line += "}\n"
        return line
    }

    /// `text` as the inside of a JSON string: `"` and `\` escaped, control characters (and DEL, U+2028 and U+2029,
    /// which some readers take for line ends) as `\uXXXX` or their short forms.
    static func escape(_ text: String, into line: inout String) {
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": line += "\\\""
            case "\\": line += "\\\\"
            case "\n": line += "\\n"
            case "\r": line += "\\r"
            case "\t": line += "\\t"
            case "\u{00}"..."\u{1F}", "\u{7F}", "\u{2028}", "\u{2029}":
                let hex = String(scalar.value, radix: 16)
                line += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: line.unicodeScalars.append(scalar)
            }
        }
    }

    /// `date` in RFC 3339, UTC, with milliseconds: `2025-06-01T12:34:56.789Z`.
    static func timestamp(_ date: Date) -> String {
        let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
        let (seconds, fraction) = (milliseconds / 1000, milliseconds % 1000)
        var whole = time_t(fraction < 0 ? seconds - 1 : seconds)
        var parts = tm()
        gmtime_r(&whole, &parts)
        func padded(_ value: Int, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        let date = [
            padded(Int(parts.tm_year) + 1900, 4), padded(Int(parts.tm_mon) + 1, 2), padded(Int(parts.tm_mday), 2),
        ]
        let time = [padded(Int(parts.tm_hour), 2), padded(Int(parts.tm_min), 2), padded(Int(parts.tm_sec), 2)]
        let millis = padded(Int(fraction < 0 ? fraction + 1000 : fraction), 3)
        return date.joined(separator: "-") + "T" + time.joined(separator: ":") + "." + millis + "Z"
    }

    /// Writes `line` to standard error in one piece: lines of several threads never interleave, and each is one
    /// `write(2)` of the whole line where the descriptor takes it (a regular file, a pipe up to its atomic size).
    public static func standardError(_ line: String) {
        var line = line
        line.withUTF8 { bytes in
            guard let base = bytes.baseAddress else { return }
            writing.withLock { _ in
                var offset = 0
                while offset < bytes.count {
                    let written = write(2, base + offset, bytes.count - offset)
                    if written < 0 {
                        guard errno == EINTR else { return }
                        continue
                    }
                    offset += written
                }
            }
        }
    }

    /// Held while a line is written to standard error.
    private static let writing = Mutex(())
}
