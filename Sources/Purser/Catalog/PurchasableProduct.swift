import Foundation
import PurserCore

/// A product the app can sell: the server credits it and the store offers it.
public struct PurchasableProduct: Sendable, Hashable, Identifiable {
    /// The product id, the same in the server's catalog and in App Store Connect.
    public var id: String
    /// Consumable or non-consumable, as the server's catalog says.
    public var kind: ProductDefinition.Kind
    /// What one unit grants, from the server.
    public var grants: Grants
    /// The store's localized name and price.
    public var displayName: String
    /// The store's localized price, ready to show ("$0.99", "¥6.00").
    public var displayPrice: String
    /// The price as a number, in `currencyCode`, to compare or format prices (price per gem); nil when the store gave
    /// none.
    public var price: Decimal?
    /// The ISO 4217 code of the price's currency (`USD`, `CNY`); nil when the store gave none.
    public var currencyCode: String?

    /// A product from its parts; public so an app's tests can make one.
    public init(
        id: String, kind: ProductDefinition.Kind, grants: Grants, displayName: String, displayPrice: String,
        price: Decimal? = nil, currencyCode: String? = nil
    ) {
        self.id = id
        self.kind = kind
        self.grants = grants
        self.displayName = displayName
        self.displayPrice = displayPrice
        self.price = price
        self.currencyCode = currencyCode
    }
}
