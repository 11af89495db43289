import PurserCore

/// A product the app can sell: the server credits it and the store offers it.
public struct PurchasableProduct: Sendable, Hashable, Identifiable {
    public var id: String
    public var kind: ProductDefinition.Kind
    /// What one unit grants, from the server.
    public var grants: Grants
    /// The store's localized name and price.
    public var displayName: String
    public var displayPrice: String

    public init(id: String, kind: ProductDefinition.Kind, grants: Grants, displayName: String, displayPrice: String) {
        self.id = id
        self.kind = kind
        self.grants = grants
        self.displayName = displayName
        self.displayPrice = displayPrice
    }
}
