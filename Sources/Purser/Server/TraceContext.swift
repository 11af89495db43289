/// A W3C Trace Context `traceparent` (https://www.w3.org/TR/trace-context/): the trace a request belongs to and
/// the span that sent it, so the server's traces show one purchase as one trace. `PurserAPIClient` sends one on
/// every request: a purchase's requests (its order, each submission and retry, recovery after a relaunch) carry
/// the trace id its journal entry keeps, each with a span id of its own; other requests start a trace each.
public struct TraceContext: Sendable, Hashable, CustomStringConvertible {
    /// The header's name.
    public static let header = "traceparent"

    /// The trace: 32 lowercase hexadecimal digits (16 bytes), not all zero.
    public let traceID: String
    /// The span of the request that carries it (W3C's `parent-id`): 16 lowercase hexadecimal digits (8 bytes), not
    /// all zero.
    public let spanID: String
    /// The trace flags; bit 0 is `sampled`. The SDK sends `01`.
    public let flags: UInt8

    /// Whether the sender recorded its span (flag bit 0).
    public var sampled: Bool { flags & 1 == 1 }

    /// The header's value in version `00`: `00-<trace id>-<span id>-<flags>`.
    public var traceparent: String { "00-\(traceID)-\(spanID)-\(Self.hex(UInt64(flags), digits: 2))" }

    /// The header's value.
    public var description: String { traceparent }

    /// A context from its parts; nil when an id is not lowercase hexadecimal of its length, or is all zero.
    public init?(traceID: String, spanID: String, flags: UInt8 = 1) {
        guard Self.isTraceID(traceID), Self.isID(Array(spanID.utf8), digits: 16) else { return nil }
        self.traceID = traceID
        self.spanID = spanID
        self.flags = flags
    }

    /// Parses a `traceparent` value as W3C Trace Context says: two lowercase hexadecimal digits of version (not
    /// `ff`), a trace id and a span id that are lowercase hexadecimal of their lengths and not all zero, two of
    /// flags, separated by dashes; version `00` is exactly that (55 characters), a higher version may go on after
    /// a further dash. Nil for anything else: the receiver starts a new trace then.
    public init?(traceparent: String) {
        let bytes = Array(traceparent.utf8)
        guard bytes.count >= 55, Self.isHex(bytes[0..<2]), bytes[0..<2] != [0x66, 0x66] else { return nil }
        let dash = UInt8(ascii: "-")
        guard bytes[2] == dash, bytes[35] == dash, bytes[52] == dash, Self.isHex(bytes[53..<55]) else { return nil }
        if bytes[0..<2] == [0x30, 0x30] {
            guard bytes.count == 55 else { return nil }
        } else if bytes.count > 55, bytes[55] != dash {
            return nil
        }
        let flags = UInt8(String(decoding: bytes[53..<55], as: UTF8.self), radix: 16) ?? 0
        self.init(
            traceID: String(decoding: bytes[3..<35], as: UTF8.self),
            spanID: String(decoding: bytes[36..<52], as: UTF8.self), flags: flags)
    }

    /// A new trace (a random trace id) with a random span id, sampled.
    public static func newTrace() -> TraceContext {
        TraceContext(newSpanIn: newTraceID())
    }

    /// A random trace id: 32 lowercase hexadecimal digits, never all zero.
    public static func newTraceID() -> String {
        var generator = SystemRandomNumberGenerator()
        var high: UInt64
        var low: UInt64
        repeat {
            high = generator.next()
            low = generator.next()
        } while high == 0 && low == 0
        return hex(high, digits: 16) + hex(low, digits: 16)
    }

    /// A new span of trace `traceID` (random span id, sampled); a new trace when `traceID` is nil or not a valid
    /// trace id.
    public init(newSpanIn traceID: String?) {
        var generator = SystemRandomNumberGenerator()
        var span: UInt64
        repeat { span = generator.next() } while span == 0
        let trace = traceID.flatMap { Self.isTraceID($0) ? $0 : nil } ?? Self.newTraceID()
        self.traceID = trace
        self.spanID = Self.hex(span, digits: 16)
        self.flags = 1
    }

    /// Whether `traceID` is a valid trace id: 32 lowercase hexadecimal digits, not all zero.
    public static func isTraceID(_ traceID: String) -> Bool {
        isID(Array(traceID.utf8), digits: 32)
    }

    private static func isID(_ bytes: [UInt8], digits: Int) -> Bool {
        bytes.count == digits && isHex(bytes[...]) && bytes.contains { $0 != UInt8(ascii: "0") }
    }

    private static func isHex(_ bytes: ArraySlice<UInt8>) -> Bool {
        bytes.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    private static func hex(_ value: UInt64, digits: Int) -> String {
        let text = String(value, radix: 16)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}
