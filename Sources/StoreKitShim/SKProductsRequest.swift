import AppStoreSimulator
import Foundation

/// Looks up products by identifier. Not `Sendable`, like Apple's. An offline device fails the request as a real one
/// does: `SKError.unknown` with the URL loading error underneath.
@available(*, deprecated, message: "Use Product.products(for:)")
open class SKProductsRequest: SKRequest {
    let identifiers: Set<String>

    public init(productIdentifiers: Set<String>) {
        identifiers = productIdentifiers
        super.init()
    }

    override func run() async {
        guard let process else { return delegate?.request(self, didFailWithError: SKError(.clientInvalid)) ?? () }
        guard !process.device.isOffline else { return delegate?.request(self, didFailWithError: SKError.offline) ?? () }
        let found = process.device.products(identifiers)
        let response = SKProductsResponse(
            products: found.map(SKProduct.init),
            invalidProductIdentifiers: identifiers.subtracting(found.map(\.id)).sorted())
        (delegate as? any SKProductsRequestDelegate)?.productsRequest(self, didReceive: response)
        delegate?.requestDidFinish(self)
    }
}
