import Foundation
import PurserCore

/// A product as the simulated App Store shows it on a device: what StoreKit's product requests return.
public struct DeviceProduct: Sendable, Hashable {
    public var id: String
    public var displayName: String
    public var price: Decimal
    public var displayPrice: String
    /// The price's currency: the simulated storefront's, US dollars.
    public var currencyCode = "USD"
    public var kind: ProductDefinition.Kind

    public init(id: String, displayName: String, price: Decimal, kind: ProductDefinition.Kind = .consumable) {
        self.id = id
        self.displayName = displayName
        self.price = price
        self.displayPrice = "$\(price)"
        self.kind = kind
    }
}
