import Foundation
import PurserCore
import PurserWebhooks

/// An outbox row about to be written with a credit, a revoke, a restore or a wallet change, in the same database
/// transaction: its idempotency key and its webhook body. The store draws its webhook id (`OutboxIdentity`), assigns
/// the user's next `sequence` and then asks for the body, which is written once and posted unchanged on every attempt.
struct OutboxEvent: Sendable {
    /// Unique per event: `<transactionId>:credited`, `<transactionId>:revoke:<n>`, `<transactionId>:restore:<n>`,
    /// `wallet:<row id>`, `erased:<pseudonym>:<milliseconds>`.
    var idempotencyKey: String
    var type: WebhookEvent.EventType
    /// The transaction of a `transaction.*` event.
    var record: LedgerTransaction?
    /// The spend or deposit of a `wallet.changed` event.
    var walletChange: WalletTransaction? = nil
    var owner: UserID
    var grants: Grants
    var cause: String?
    var share: Double?
    /// For a revoke: Apple's revocation type and the share revoked afterwards (milliunits), and what the balance
    /// could not give (`refunds.allowNegativeBalance` false).
    var revocationType: RevocationType? = nil
    var revocationPercentage: Int? = nil
    var shortfall: Grants? = nil
    var at: Date

    /// The credit of `record` to `owner`, caused by a source of `cause`'s category (`client`, `notification`, …).
    static func credited(_ record: LedgerTransaction, owner: UserID, cause: String?, at: Date) -> OutboxEvent {
        OutboxEvent(
            idempotencyKey: "\(record.transaction.transactionID):credited", type: .transactionCredited, record: record,
            owner: owner, grants: record.grants, cause: cause, share: nil, at: at)
    }

    /// The `number`-th revoke of `record`: `revoked` (positive amounts) taken back, taking the revoked share from
    /// `previous` to `share` milliunits; `shortfall` what was due but not taken.
    static func revoke(
        _ record: LedgerTransaction, owner: UserID, revoked: Grants, shortfall: Grants, previous: Int, share: Int,
        type: RevocationType?, number: Int, at: Date
    ) throws(AmountError) -> OutboxEvent {
        OutboxEvent(
            idempotencyKey: "\(record.transaction.transactionID):revoke:\(number)", type: .transactionRevoked,
            record: record, owner: owner, grants: Grants(try revoked.money.negated()), cause: nil,
            share: Double(share - previous) / Double(RefundRules.whole), revocationType: type,
            revocationPercentage: share, shortfall: shortfall.isEmpty ? nil : shortfall, at: at)
    }

    /// The `number`-th restore of `record`: `restored` (what its refunds had taken back) given back.
    static func restore(_ record: LedgerTransaction, owner: UserID, restored: Grants, number: Int, at: Date)
        -> OutboxEvent
    {
        OutboxEvent(
            idempotencyKey: "\(record.transaction.transactionID):restore:\(number)", type: .transactionRestored,
            record: record, owner: owner, grants: restored, cause: nil, share: nil, at: at)
    }

    /// The spend or deposit `change`, the `row`-th of the ledger's wallet transactions.
    static func walletChanged(_ change: WalletTransaction, row: Int64) -> OutboxEvent {
        OutboxEvent(
            idempotencyKey: "wallet:\(row)", type: .walletChanged, record: nil, walletChange: change,
            owner: change.request.userID, grants: Grants(change.request.amounts), cause: change.request.cause,
            share: nil, at: change.recordedAt)
    }

    /// The erasure of a user whose id became `pseudonym`.
    static func userErased(pseudonym: UserID, at: Date) -> OutboxEvent {
        OutboxEvent(
            idempotencyKey: "erased:\(pseudonym.rawValue):\(at.millis)", type: .userErased, record: nil,
            owner: pseudonym, grants: Grants([:]), cause: nil, share: nil, at: at)
    }

    /// The webhook body with the user's `sequence`, naming the ledger's app.
    func body(sequence: Int64, bundleID: String?) throws -> String {
        var event = try event(sequence: sequence)
        event.bundleId = bundleID
        return String(decoding: try event.body(), as: UTF8.self)
    }

    private func event(sequence: Int64) throws -> WebhookEvent {
        if type == .userErased {
            return WebhookEvent(
                type: type, timestamp: at, erasure: .init(userId: owner.rawValue, occurredAt: at, sequence: sequence))
        }
        guard let record else {
            let change = walletChange
            return WebhookEvent(
                type: type, timestamp: at,
                walletChange: .init(
                    id: change?.request.id ?? "", userId: owner.rawValue, amounts: grants.amounts,
                    balances: change?.balances ?? [:], cause: cause ?? "", reason: change?.request.reason ?? "",
                    occurredAt: at, sequence: sequence))
        }
        let transaction = record.transaction
        return WebhookEvent(
            type: type, timestamp: at,
            transaction: .init(
                transactionId: transaction.transactionID, originalTransactionId: transaction.originalTransactionID,
                orderId: record.orderID?.description, userId: owner.rawValue, productId: transaction.productID,
                quantity: transaction.quantity, grants: grants.amounts, environment: transaction.environment.rawValue,
                occurredAt: at, sequence: sequence, cause: cause.map { .init(rawValue: $0) }, share: share,
                revocationType: revocationType?.rawValue, revocationPercentage: revocationPercentage,
                shortfall: shortfall?.amounts))
    }
}
