/// Apple's `revocationType`: why a transaction was taken back. Kept as Apple's string, so a type newer than this
/// code decodes (and is stored) as it is instead of failing the whole signed payload.
public struct RevocationType: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public var description: String { rawValue }

    /// The whole purchase was refunded.
    public static let refundFull = RevocationType(rawValue: "REFUND_FULL")
    /// Part of the purchase was refunded: `revocationPercentage` says how much.
    public static let refundProrated = RevocationType(rawValue: "REFUND_PRORATED")
    /// A Family Sharing member lost access (the purchaser left the family or stopped sharing).
    public static let familyRevoke = RevocationType(rawValue: "FAMILY_REVOKE")

    /// Whether this type always takes back the whole purchase, whatever percentage comes with it.
    public var isWhole: Bool { self == .refundFull || self == .familyRevoke }
}
