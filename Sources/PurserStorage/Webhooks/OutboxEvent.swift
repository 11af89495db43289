import Foundation
import PurserCore
import PurserWebhooks

/// An outbox row about to be written with a credit, a revoke or a restore, in the same database transaction: its
/// keys and its webhook body. The store assigns the user's next `sequence` and then asks for the body, which is
/// written once and posted unchanged on every attempt.
struct OutboxEvent: Sendable {
    /// Unique per event: `<transactionId>:credited`, `<transactionId>:revoke:<n>`, `<transactionId>:restore:<n>`.
    var idempotencyKey: String
    var type: WebhookEvent.EventType
    var record: LedgerTransaction
    var owner: UserID
    var grants: Grants
    var cause: String?
    var share: Double?
    var at: Date

    /// `webhook-id`: `evt_` and the idempotency key with `_` for `:` (no `.`, as the specification asks).
    var webhookID: String { Self.webhookID(forKey: idempotencyKey) }

    static func webhookID(forKey key: String) -> String { "evt_" + key.replacingOccurrences(of: ":", with: "_") }

    /// The credit of `record` to `owner`, caused by a source of `cause`'s category (`client`, `notification`, …).
    static func credited(_ record: LedgerTransaction, owner: UserID, cause: String?, at: Date) -> OutboxEvent {
        OutboxEvent(
            idempotencyKey: "\(record.transaction.transactionID):credited", type: .transactionCredited, record: record,
            owner: owner, grants: record.grants, cause: cause, share: nil, at: at)
    }

    /// The `number`-th revoke (`sign` -1) or restore (`sign` 1) of `record`'s grants.
    static func adjustment(_ record: LedgerTransaction, owner: UserID, sign: Int64, number: Int, at: Date)
        -> OutboxEvent
    {
        let kind = sign < 0 ? "revoke" : "restore"
        return OutboxEvent(
            idempotencyKey: "\(record.transaction.transactionID):\(kind):\(number)",
            type: sign < 0 ? .transactionRevoked : .transactionRestored, record: record, owner: owner,
            grants: Grants(record.grants.amounts.mapValues { sign * $0 }), cause: nil, share: sign < 0 ? 1 : nil,
            at: at)
    }

    /// The webhook body with the user's `sequence`.
    func body(sequence: Int64) throws -> String {
        let transaction = record.transaction
        let event = WebhookEvent(
            type: type, timestamp: at,
            transaction: .init(
                transactionId: transaction.transactionID, originalTransactionId: transaction.originalTransactionID,
                orderId: record.orderID?.description, userId: owner.rawValue, productId: transaction.productID,
                quantity: transaction.quantity, grants: grants.amounts, environment: transaction.environment.rawValue,
                occurredAt: at, sequence: sequence, cause: cause.map { .init(rawValue: $0) }, share: share))
        return String(decoding: try event.body(), as: UTF8.self)
    }
}
