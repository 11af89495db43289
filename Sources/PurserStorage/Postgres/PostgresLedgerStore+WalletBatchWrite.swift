import Foundation
import PostgresNIO
import PurserCore
import PurserWebhooks

extension PostgresLedgerStore {
    /// Writes a batch's applied wallet transactions: first their row ids and each user's next webhook sequences (one
    /// round trip), then, in one statement, their rows, entries, `wallet.changed` events and audit records.
    func write(_ applied: [WalletTransaction], on connection: PostgresConnection) async throws {
        var counts: [String: Int64] = [:]
        for change in applied { counts[change.request.userID.rawValue, default: 0] += 1 }
        let users = counts.keys.sorted()
        let reserved = try await rows(
            connection,
            """
            WITH s AS (
                INSERT INTO webhook_sequences (user_id, last)
                SELECT u, n FROM unnest(\(users)::TEXT[], \(users.map { counts[$0] ?? 0 })::BIGINT[]) AS x(u, n)
                ON CONFLICT (user_id) DO UPDATE SET last = webhook_sequences.last + EXCLUDED.last
                RETURNING user_id, last)
            SELECT 's' AS kind, user_id, last AS value FROM s
            UNION ALL
            SELECT 'r', NULL, nextval(pg_get_serial_sequence('wallet_transactions', 'id'))
            FROM generate_series(1, \(applied.count))
            """)
        var rowIDs: [Int64] = []
        var next: [String: Int64] = [:]
        for raw in reserved {
            let row = raw.makeRandomAccess()
            let value = try row.int64("value")
            if try row.text("kind") == "r" {
                rowIDs.append(value)
            } else if let user = try row.optionalText("user_id") {
                next[user] = value - (counts[user] ?? 0) + 1
            }
        }
        guard rowIDs.count == applied.count, next.count == users.count else {
            throw StorageError(.corrupt, "a wallet batch's row ids or webhook sequences did not come back")
        }
        rowIDs.sort()
        var rows = WalletBatchRows()
        for (change, row) in zip(applied, rowIDs) {
            let user = change.request.userID.rawValue
            let sequence = next[user] ?? 1
            next[user] = sequence + 1
            try rows.add(change, row: row, sequence: sequence, outbox: outbox)
        }
        try await execute(
            connection,
            """
            WITH t AS (
                INSERT INTO wallet_transactions
                    (id, idempotency_id, user_id, amounts, reason, metadata, cause, balances, created_at)
                SELECT * FROM unnest(\(rows.ids)::BIGINT[], \(rows.keys)::TEXT[], \(rows.users)::TEXT[],
                    \(rows.amounts)::TEXT[], \(rows.reasons)::TEXT[], \(rows.metadata)::TEXT[], \(rows.causes)::TEXT[],
                    \(rows.balances)::TEXT[], \(rows.at)::BIGINT[])),
            e AS (
                INSERT INTO wallet_entries (wallet_transaction_id, user_id, currency, amount)
                SELECT * FROM unnest(\(rows.entryRows)::BIGINT[], \(rows.entryUsers)::TEXT[],
                    \(rows.entryCurrencies)::TEXT[], \(rows.entryAmounts)::BIGINT[])),
            o AS (
                INSERT INTO outbox (idempotency_key, webhook_id, topic, user_id, sequence, payload, created_at)
                SELECT * FROM unnest(\(rows.eventKeys)::TEXT[], \(rows.webhookIDs)::TEXT[], \(rows.topics)::TEXT[],
                    \(rows.users)::TEXT[], \(rows.sequences)::BIGINT[], \(rows.payloads)::TEXT[], \(rows.at)::BIGINT[]))
            INSERT INTO audit_log (at, subject, subject_id, event, cause, detail)
            SELECT * FROM unnest(\(rows.auditAt)::BIGINT[], \(rows.auditSubjects)::TEXT[], \(rows.keys)::TEXT[],
                \(rows.auditEvents)::TEXT[], \(rows.causes)::TEXT[], \(rows.auditDetails)::TEXT[])
            """)
    }
}

/// A batch's wallet rows as column arrays, for `unnest`.
struct WalletBatchRows {
    var ids: [Int64] = []
    var keys: [String] = []
    var users: [String] = []
    var amounts: [String] = []
    var reasons: [String] = []
    var metadata = PostgresNullableArray<String>()
    var causes: [String] = []
    var balances: [String] = []
    var at: [Int64] = []
    var entryRows: [Int64] = []
    var entryUsers: [String] = []
    var entryCurrencies: [String] = []
    var entryAmounts: [Int64] = []
    var eventKeys: [String] = []
    var webhookIDs: [String] = []
    var topics: [String] = []
    var sequences: [Int64] = []
    var payloads: [String] = []
    var auditAt: [Int64] = []
    var auditSubjects: [String] = []
    var auditEvents: [String] = []
    var auditDetails: [String] = []

    /// `change`, the `row`-th wallet transaction, whose event is its user's `sequence`-th, stamped by `outbox`.
    mutating func add(_ change: WalletTransaction, row: Int64, sequence: Int64, outbox: OutboxIdentity) throws {
        let request = change.request
        ids.append(row)
        keys.append(request.id)
        users.append(request.userID.rawValue)
        amounts.append(try WalletRows.json(request.amounts))
        reasons.append(request.reason)
        metadata.append(request.metadata)
        causes.append(request.cause)
        balances.append(try WalletRows.json(change.balances))
        at.append(change.recordedAt.millis)
        for (currency, amount) in request.amounts.sorted(by: { $0.key < $1.key }) {
            entryRows.append(row)
            entryUsers.append(request.userID.rawValue)
            entryCurrencies.append(currency)
            entryAmounts.append(amount)
        }
        let event = OutboxEvent.walletChanged(change, row: row)
        eventKeys.append(event.idempotencyKey)
        webhookIDs.append(outbox.nextWebhookID(at: event.at))
        topics.append(event.type.rawValue)
        sequences.append(sequence)
        payloads.append(try event.body(sequence: sequence, bundleID: outbox.bundleID))
        let audit = WalletRules.audit(change)
        auditAt.append(audit.at.millis)
        auditSubjects.append(audit.subject.rawValue)
        auditEvents.append(audit.event)
        auditDetails.append(audit.detail)
    }
}
