import Foundation

/// A product as the store presents it.
public struct StoreProduct: Sendable, Hashable {
    /// The product id.
    public var id: String
    /// The store's localized name.
    public var displayName: String
    /// The store's localized price.
    public var displayPrice: String
    /// The price as a number, in `currencyCode` (StoreKit 2's `Product.price`, StoreKit 1's `SKProduct.price`); nil
    /// when the store gave none.
    public var price: Decimal?
    /// The ISO 4217 code of the price's currency (`USD`, `CNY`); nil when the store gave none.
    public var currencyCode: String?

    /// A product as the store describes it.
    public init(
        id: String, displayName: String, displayPrice: String, price: Decimal? = nil, currencyCode: String? = nil
    ) {
        self.id = id
        self.displayName = displayName
        self.displayPrice = displayPrice
        self.price = price
        self.currencyCode = currencyCode
    }
}
