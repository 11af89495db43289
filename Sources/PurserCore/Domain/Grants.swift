/// What a purchase gives: amounts per virtual currency or entitlement, e.g. `["gold": 60]`.
/// Amounts are integers (money-like values are never floating point).
public struct Grants: Hashable, Sendable, Codable {
    public var amounts: [String: Int64]
    public init(_ amounts: [String: Int64]) { self.amounts = amounts }
    public static let none = Grants([:])
    public var isEmpty: Bool { amounts.isEmpty }
    /// The grants for `quantity` units of a product.
    public func times(_ quantity: Int) -> Grants {
        Grants(amounts.mapValues { $0 * Int64(quantity) })
    }
    /// Sorted (currency, amount) pairs, for deterministic storage and output.
    public var sorted: [(currency: String, amount: Int64)] {
        amounts.keys.sorted().map { ($0, amounts[$0]!) }
    }
    public init(from decoder: any Decoder) throws {
        amounts = try decoder.singleValueContainer().decode([String: Int64].self)
    }
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(amounts)
    }
}
