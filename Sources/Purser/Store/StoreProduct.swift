/// A product as the store presents it.
public struct StoreProduct: Sendable, Hashable {
    /// The product id.
    public var id: String
    /// The store's localized name.
    public var displayName: String
    /// The store's localized price.
    public var displayPrice: String

    /// A product as the store describes it.
    public init(id: String, displayName: String, displayPrice: String) {
        self.id = id
        self.displayName = displayName
        self.displayPrice = displayPrice
    }
}
