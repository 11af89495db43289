import Foundation

/// A payment whose fields the app sets. Not `Sendable`, like Apple's.
@available(*, deprecated, message: "Use Product.purchase(confirmIn:options:)")
open class SKMutablePayment: SKPayment {
    override open var productIdentifier: String {
        get { storedProductIdentifier }
        set { storedProductIdentifier = newValue }
    }
    override open var quantity: Int {
        get { storedQuantity }
        set { storedQuantity = newValue }
    }
    override open var applicationUsername: String? {
        get { storedApplicationUsername }
        set { storedApplicationUsername = newValue }
    }
}
