/// What the server decided for one Apple transaction. The client obeys `finish` and nothing else.
public enum Decision: Hashable, Sendable {
    /// Credited now, to the submitting account.
    case delivered
    /// Credited earlier to the submitting account; nothing new.
    case alreadyDelivered
    /// Credited (now or earlier) to the account that owns the order, which is not the submitter.
    case deliveredToOtherAccount
    /// Recorded but not credited yet (for example no order binds it to an account); retry later.
    case pending(PendingReason)
    /// Definitively refused; the transaction may be finished.
    case rejected(RejectionReason)
    /// Apple revoked (refunded) it; never credited.
    case revoked

    /// Whether the client may now call `finishTransaction`.
    public var finish: Bool {
        if case .pending = self { return false }
        return true
    }

    /// The stable wire name of the decision.
    public var name: String {
        switch self {
        case .delivered: "delivered"
        case .alreadyDelivered: "alreadyDelivered"
        case .deliveredToOtherAccount: "deliveredToOtherAccount"
        case .pending: "pending"
        case .rejected: "rejected"
        case .revoked: "revoked"
        }
    }
}

/// Why a decision is still pending. `code` is stable.
public struct PendingReason: Hashable, Sendable, Codable {
    public var code: String
    public var message: String
    public init(code: String, message: String) {
        self.code = code
        self.message = message
    }
    public static let notInReceipt = PendingReason(
        code: "not_in_receipt",
        message: "the receipt does not list this transaction yet; refresh the receipt and submit again"
    )
    public static let noTransactionNamed = PendingReason(
        code: "no_transaction_named",
        message: "the receipt holds several transactions; each has its own decision in transactions"
    )
    public static let unbound = PendingReason(
        code: "unbound",
        message: "no order binds this transaction to an account; it is kept for reconciliation and support"
    )
}
