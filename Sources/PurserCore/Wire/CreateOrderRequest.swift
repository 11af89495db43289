/// `POST /v1/orders` body: the product the user is about to buy.
public struct CreateOrderRequest: Codable, Sendable, Hashable {
    public var productId: String
    public var quantity: Int?
    public init(productId: String, quantity: Int? = nil) {
        self.productId = productId
        self.quantity = quantity
    }
}
