import Foundation

/// A request to buy a product. Like Apple's it is not `Sendable`: build it, hand it to `SKPaymentQueue.add(_:)` and
/// do not share it with another task.
@available(*, deprecated, message: "Use Product.purchase(confirmIn:options:)")
open class SKPayment: NSObject {
    var storedProductIdentifier = ""
    var storedQuantity = 1
    var storedApplicationUsername: String?

    override public init() {
        super.init()
    }

    /// A payment for one unit of `product`.
    public convenience init(product: SKProduct) {
        self.init()
        storedProductIdentifier = product.productIdentifier
    }

    open var productIdentifier: String { storedProductIdentifier }
    open var quantity: Int { storedQuantity }
    /// An opaque identifier of the user's account; StoreKit may hand it back as nil.
    open var applicationUsername: String? { storedApplicationUsername }
}
