import Foundation

/// One traceable state change of an order or a transaction, with its cause (invariant 6).
public struct AuditEvent: Hashable, Sendable, Codable {
    public enum Subject: String, Hashable, Sendable, Codable {
        case order
        case transaction
        /// A webhook event (its `webhook-id`): an operator's replay.
        case webhook
        /// A spend or deposit (its idempotency id) applied to a wallet.
        case wallet
        /// A hold on a wallet (its id): placed, captured, voided, expired.
        case hold
        /// A user (the pseudonym an erasure gave them): erased.
        case user
        /// A key of the admin API (its name): created, revoked.
        case apiKey = "api_key"
        /// A console operator (their name): added, a role changed, disabled or enabled, a new password.
        case consoleOperator = "operator"
    }

    public var at: Date
    public var subject: Subject
    public var subjectID: String
    /// What happened, e.g. "credited", "recorded_unbound", "order_delivered".
    public var event: String
    /// Who or what caused it, e.g. "submission by user-42".
    public var cause: String
    public var detail: String

    public init(at: Date, subject: Subject, subjectID: String, event: String, cause: String, detail: String = "") {
        self.at = at
        self.subject = subject
        self.subjectID = subjectID
        self.event = event
        self.cause = cause
        self.detail = detail
    }
}
