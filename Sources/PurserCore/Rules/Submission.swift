import Foundation

/// A verified transaction handed to the ledger for a decision, with what the server already knows about it.
public struct Submission: Hashable, Sendable {
    /// The server's assessment before the ledger looks: creditable as a catalog product, or definitively refused.
    public enum Assessment: Hashable, Sendable {
        case creditable(ProductDefinition)
        case rejected(RejectionReason)
    }

    /// Where the submission came from; written into the audit log as the cause.
    public enum Source: Hashable, Sendable, CustomStringConvertible {
        /// The app of this signed-in user submitted it.
        case client(UserID)
        /// An App Store Server Notification (by its `notificationUUID`).
        case notification(String)
        /// Reconciliation with the App Store Server API found it.
        case reconciliation
        /// A support operator credits an unbound transaction to `user`, for `reason`.
        case support(operator: String, user: UserID, reason: String)

        public var description: String {
            switch self {
            case .client(let user): "submission by \(user)"
            case .notification(let uuid): "notification \(uuid)"
            case .reconciliation: "reconciliation"
            case .support(let name, let user, let reason): "support by \(name) for \(user): \(reason)"
            }
        }

        /// The kind of source in one word, as webhooks name a credit's cause: `client`, `notification`,
        /// `reconciliation` or `support`.
        public var category: String {
            switch self {
            case .client: Self.clientCategory
            case .notification: "notification"
            case .reconciliation: "reconciliation"
            case .support: "support"
            }
        }

        /// `category` of an app's own submission.
        public static let clientCategory = "client"

        /// The account that submitted, if a client did.
        public var submitter: UserID? {
            if case .client(let user) = self { return user }
            return nil
        }
    }

    public var transaction: AppleTransaction
    public var assessment: Assessment
    public var source: Source
    /// The order the client believes this transaction pays for; used only when Apple's record carries no token.
    public var orderHint: OrderID?
    /// The refusal an operator overrides, by code (`RejectionReason.overridable`): with it a support grant credits a
    /// transaction the ledger refused, audited as an override. Set only by support, only when the refusal is overridable.
    public var override: String?
    /// How long before Apple's purchase date the hinted order may have been created and still count (the server's
    /// `orderHint.maxAgeSeconds`); an older order does not bind a transaction without a token.
    public var orderHintMaxAge: TimeInterval
    /// `refunds.allowNegativeBalance`: whether the share Apple refunded before the credit may take the owner's
    /// balance below zero when the settlement revokes it.
    public var allowNegativeBalance: Bool
    /// The W3C `traceparent` of the span that settles this submission, when the server traces: the ledger links the
    /// transaction to it in the settlement's own database transaction (the first link kept), so a later webhook
    /// delivery joins the purchase's trace and support finds it. Observability only: no rule reads it.
    public var traceParent: String?

    /// A day: an order the app made for this purchase is seconds or minutes older than it, not days.
    public static let defaultOrderHintMaxAge: TimeInterval = 86_400

    public init(
        transaction: AppleTransaction, assessment: Assessment, source: Source, orderHint: OrderID? = nil,
        orderHintMaxAge: TimeInterval = Submission.defaultOrderHintMaxAge, override: String? = nil,
        allowNegativeBalance: Bool = true
    ) {
        self.override = override
        self.allowNegativeBalance = allowNegativeBalance
        self.transaction = transaction
        self.assessment = assessment
        self.source = source
        self.orderHint = orderHint
        self.orderHintMaxAge = orderHintMaxAge
    }

    /// The order to look up: Apple's signed token when present, else the client's hint.
    public var orderToLookUp: OrderID? { transaction.appAccountToken ?? orderHint }
}
