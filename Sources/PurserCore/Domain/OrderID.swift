import Foundation

/// A Purser order id: a UUID, the same value the app passes as `applicationUsername` / `appAccountToken`.
/// Always lower-case in storage and on the wire, because StoreKit hands tokens back lower-cased.
public struct OrderID: Hashable, Sendable, Codable, CustomStringConvertible {
    public let uuid: UUID
    public init(_ uuid: UUID) { self.uuid = uuid }
    /// Parses any spelling of a UUID; `nil` for anything else.
    public init?(_ string: String) {
        guard let uuid = UUID(uuidString: string) else { return nil }
        self.uuid = uuid
    }
    /// A random id (UUID version 4).
    public static func random() -> OrderID { OrderID(UUID()) }

    /// A new order id made at `date`: a UUID of version 7 (RFC 9562), `date.millis` (as the ledger stores times) in
    /// its first 48 bits, then 74 random bits. Ids made later sort later, so the ledger's indexes on order ids (the
    /// orders' key, the audit records naming them) grow at one end: a commit of many new orders writes a few pages,
    /// not one each.
    public static func timeOrdered(at date: Date) -> OrderID {
        let millis = UInt64(clamping: date.millis)
        var bytes = UUID().uuid
        withUnsafeMutableBytes(of: &bytes) { raw in
            for index in 0..<6 { raw[index] = UInt8(truncatingIfNeeded: millis >> UInt64(8 * (5 - index))) }
            raw[6] = 0x70 | (raw[6] & 0x0F)
            raw[8] = 0x80 | (raw[8] & 0x3F)
        }
        return OrderID(UUID(uuid: bytes))
    }

    public var description: String { uuid.uuidString.lowercased() }
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let string = try container.decode(String.self)
        guard let id = OrderID(string) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a UUID")
        }
        self = id
    }
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
