/// `POST /v1/transactions` body: a StoreKit 2 signed transaction (JWS), and optionally the order the client's
/// journal associates with it (used only when Apple's record carries no `appAccountToken`).
public struct SubmitTransactionRequest: Codable, Sendable, Hashable {
    public var signedTransaction: String?
    public var orderId: String?
    public init(signedTransaction: String?, orderId: String? = nil) {
        self.signedTransaction = signedTransaction
        self.orderId = orderId
    }
}
