/// `POST /v1/transactions` body, one of:
/// - StoreKit 2: `{signedTransaction, orderId?}`;
/// - StoreKit 1: `{receipt, transactionId?, orderId?}` (the base64 app receipt and the transaction the callback is for).
/// `orderId` is the order the client's journal associates with the transaction; it counts only when Apple's record
/// carries no `appAccountToken`.
public struct SubmitTransactionRequest: Codable, Sendable, Hashable {
    public var signedTransaction: String?
    public var receipt: String?
    public var transactionId: String?
    public var orderId: String?

    public init(
        signedTransaction: String? = nil, receipt: String? = nil, transactionId: String? = nil, orderId: String? = nil
    ) {
        self.signedTransaction = signedTransaction
        self.receipt = receipt
        self.transactionId = transactionId
        self.orderId = orderId
    }
}
