/// What a purchase gives: amounts per virtual currency or entitlement, e.g. `["gold": 60]`.
/// Amounts are integers (money-like values are never floating point), and their arithmetic is `Amounts`'.
public struct Grants: Hashable, Sendable, Codable {
    /// The amounts, as money.
    public var money: Amounts
    /// The amounts per currency.
    public var amounts: [String: Int64] {
        get { money.values }
        set { money = Amounts(newValue) }
    }

    public init(_ amounts: [String: Int64]) { money = Amounts(amounts) }
    public init(_ money: Amounts) { self.money = money }
    public static let none = Grants([:])
    public var isEmpty: Bool { money.isEmpty }

    /// The grants for `quantity` units of a product; `AmountError` when a product leaves `Int64`.
    public func times(_ quantity: Int) throws(AmountError) -> Grants {
        Grants(try money.times(quantity))
    }

    /// Sorted (currency, amount) pairs, for deterministic storage and output.
    public var sorted: [(currency: String, amount: Int64)] { money.sorted }

    public init(from decoder: any Decoder) throws {
        money = try Amounts(from: decoder)
    }

    public func encode(to encoder: any Encoder) throws {
        try money.encode(to: encoder)
    }
}
