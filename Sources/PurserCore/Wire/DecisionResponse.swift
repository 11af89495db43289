/// The server's answer to a submission. A 200 with this body is a durably recorded decision: obey `finish`.
public struct DecisionResponse: Codable, Sendable, Hashable {
    /// A stable code and a message, for rejected and pending decisions.
    public struct Reason: Codable, Sendable, Hashable {
        public var code: String
        public var message: String
        public init(code: String, message: String) {
            self.code = code
            self.message = message
        }
    }

    /// The transaction the decision is about: the submitted one, or for a receipt the one the client named.
    public var transactionId: String?
    /// One of `delivered`, `alreadyDelivered`, `deliveredToOtherAccount`, `pending`, `rejected`, `revoked`.
    /// `outcome` reads it, with `reason`, as a `Decision`.
    public var decision: String
    public var finish: Bool
    public var orderId: OrderID?
    /// What this transaction granted, shown only to its owner.
    public var grants: Grants?
    public var reason: Reason?
    /// For a receipt: the decision for every transaction in it, each settled on its own.
    public var transactions: [DecisionResponse]?

    public init(transactionId: String?, decision: Decision, orderId: OrderID? = nil, grants: Grants? = nil) {
        self.transactionId = transactionId
        self.decision = decision.name
        self.finish = decision.finish
        self.orderId = orderId
        self.grants = grants
        switch decision {
        case .rejected(let reason): self.reason = Reason(code: reason.code, message: reason.message)
        case .pending(let reason): self.reason = Reason(code: reason.code, message: reason.message)
        default: self.reason = nil
        }
    }
}

extension DecisionResponse {
    /// The typed decision that `decision` and `reason` name, for a client to switch on. `nil` when this build does
    /// not know the name (a newer server's decision) or a `pending` or `rejected` answer carries no reason: the
    /// client still obeys `finish` and can report `code`.
    public var outcome: Decision? {
        switch decision {
        case "delivered": return .delivered
        case "alreadyDelivered": return .alreadyDelivered
        case "deliveredToOtherAccount": return .deliveredToOtherAccount
        case "revoked": return .revoked
        case "pending":
            return reason.map { .pending(PendingReason(code: $0.code, message: $0.message)) }
        case "rejected":
            return reason.map { .rejected(RejectionReason(code: $0.code, message: $0.message)) }
        default: return nil
        }
    }

    /// The decision's stable code, to record or report when it delivers nothing: the reason's code, else the name.
    public var code: String {
        reason?.code ?? decision
    }
}
