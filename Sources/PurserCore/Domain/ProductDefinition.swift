/// A product the app sells, as the server's catalog configures it: what it is and what it grants per unit. Not
/// StoreKit's `Product`, whose name an app that imports both keeps unambiguous.
public struct ProductDefinition: Hashable, Sendable, Codable {
    /// The kinds of product Purser credits. Subscriptions are out of scope.
    public enum Kind: String, Hashable, Sendable, Codable {
        case consumable
        case nonConsumable = "non-consumable"

        /// Apple's spelling of the type in a signed transaction.
        public var appleType: String {
            switch self {
            case .consumable: "Consumable"
            case .nonConsumable: "Non-Consumable"
            }
        }
    }

    public var id: String
    public var type: Kind
    public var grants: Grants

    /// Apple's largest quantity of one purchase (StoreKit sells 1 to 10 units of a consumable).
    public static let maxQuantity = 10

    public init(id: String, type: Kind, grants: Grants) {
        self.id = id
        self.type = type
        self.grants = grants
    }
}
