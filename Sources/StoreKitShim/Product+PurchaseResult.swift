extension Product {
    /// How a purchase ended.
    public enum PurchaseResult: Sendable {
        case success(VerificationResult<Transaction>)
        case userCancelled
        /// Waiting for approval (Ask to Buy, Strong Customer Authentication); the outcome comes on
        /// `Transaction.updates`.
        case pending
    }
}
