/// Receives a products request's answer (required), besides `SKRequestDelegate`'s optional methods.
@available(*, deprecated, message: "Get products using Product.products(for:)")
public protocol SKProductsRequestDelegate: SKRequestDelegate {
    func productsRequest(_ request: SKProductsRequest, didReceive response: SKProductsResponse)
}
