import AppStoreSimulator
import Foundation

/// A product as StoreKit 1 presents it. `Sendable`: it never changes.
@available(*, deprecated, message: "Use Product")
open class SKProduct: NSObject, @unchecked Sendable {
    // @unchecked: immutable.
    public let productIdentifier: String
    public let localizedTitle: String
    public let price: NSDecimalNumber
    public let priceLocale: Locale

    init(_ product: DeviceProduct) {
        productIdentifier = product.id
        localizedTitle = product.displayName
        price = NSDecimalNumber(decimal: product.price)
        priceLocale = Locale(identifier: "en_US")
    }
}
