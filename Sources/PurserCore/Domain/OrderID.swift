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
    public static func random() -> OrderID { OrderID(UUID()) }
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
