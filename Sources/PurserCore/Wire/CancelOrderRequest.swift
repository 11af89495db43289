/// `POST /v1/orders/{id}/cancel` body: why the payment for a waiting order never happened.
public struct CancelOrderRequest: Codable, Sendable, Hashable {
    /// A stable code from the client, e.g. `cancelled`, `payment_not_allowed`, `store_error`.
    public var reason: String

    public init(reason: String) {
        self.reason = reason
    }
}
