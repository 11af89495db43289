import Foundation

/// A products request's answer. `Sendable`: it never changes.
@available(*, deprecated, message: "Get products using Product.products(for:)")
open class SKProductsResponse: NSObject, @unchecked Sendable {
    // @unchecked: immutable.
    public let products: [SKProduct]
    public let invalidProductIdentifiers: [String]

    init(products: [SKProduct], invalidProductIdentifiers: [String]) {
        self.products = products
        self.invalidProductIdentifiers = invalidProductIdentifiers
    }
}
