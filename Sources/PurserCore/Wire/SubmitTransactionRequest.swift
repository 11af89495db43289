/// `POST /v1/transactions` body, one of:
/// - StoreKit 2: `{signedTransaction, orderId?}`;
/// - StoreKit 1: `{receipt, transactionId?, orderId?, appTransaction?}` (the base64 app receipt, the transaction the
///   callback is for, and StoreKit 2's signed `AppTransaction` when the OS has one: a receipt does not carry the
///   Apple account's `appTransactionId`, and the server stores it only from what Apple signed).
/// `orderId` is the order the client's journal associates with the transaction; it counts only when Apple's record
/// carries no `appAccountToken`.
public struct SubmitTransactionRequest: Codable, Sendable, Hashable {
    public var signedTransaction: String?
    public var receipt: String?
    public var transactionId: String?
    public var orderId: String?
    /// The app's signed app transaction (`AppTransaction.shared.jwsRepresentation`), sent with a receipt.
    public var appTransaction: String?

    public init(
        signedTransaction: String? = nil, receipt: String? = nil, transactionId: String? = nil, orderId: String? = nil,
        appTransaction: String? = nil
    ) {
        self.signedTransaction = signedTransaction
        self.receipt = receipt
        self.transactionId = transactionId
        self.orderId = orderId
        self.appTransaction = appTransaction
    }
}
