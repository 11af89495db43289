import Foundation
import PostgresNIO
import PurserCore

extension PostgresLedgerStore {
    /// The transaction's row is locked first, so a refund and its reversal (or two copies of one notification on two
    /// replicas) apply one after the other, the second seeing the first's state.
    public func revoke(transactionID: String, revocationDate: Date, cause: String, now: Date) async throws
        -> RefundOutcome
    {
        try await inTransaction { connection in
            guard let record = try await self.lockedTransaction(transactionID, on: connection) else {
                return .unknownTransaction
            }
            guard record.state == .credited, let owner = record.ownerID else {
                return .unchanged("the transaction is \(record.state.rawValue), not credited")
            }
            try await self.execute(
                connection,
                """
                UPDATE apple_transactions SET state = 'revoked', revocation_date = \(revocationDate.millis),
                    updated_at = \(now.millis)
                WHERE transaction_id = \(transactionID)
                """)
            try await self.writeAdjustment(
                record, owner: owner, kind: "revoke", sign: -1, cause: cause, on: connection, now: now)
            return .applied(owner: owner, grants: record.grants)
        }
    }

    public func restore(transactionID: String, cause: String, now: Date) async throws -> RefundOutcome {
        try await inTransaction { connection in
            guard let record = try await self.lockedTransaction(transactionID, on: connection) else {
                return .unknownTransaction
            }
            guard record.state == .revoked, let owner = record.ownerID, !record.grants.isEmpty else {
                return .unchanged("the transaction is \(record.state.rawValue) and was never credited")
            }
            try await self.execute(
                connection,
                """
                UPDATE apple_transactions SET state = 'credited', revocation_date = NULL, updated_at = \(now.millis)
                WHERE transaction_id = \(transactionID)
                """)
            try await self.writeAdjustment(
                record, owner: owner, kind: "restore", sign: 1, cause: cause, on: connection, now: now)
            return .applied(owner: owner, grants: record.grants)
        }
    }

    /// Grants of `kind` (signed copies of the credit), the outbox event and the audit record of a refund or its
    /// reversal, as `SQLiteLedgerStore` writes them.
    private func writeAdjustment(
        _ record: LedgerTransaction, owner: UserID, kind: String, sign: Int64, cause: String,
        on connection: PostgresConnection, now: Date
    ) async throws {
        let id = record.transaction.transactionID
        let at = now.millis
        let previous = try await rows(
            connection, "SELECT COUNT(*) AS n FROM grants WHERE transaction_id = \(id) AND kind = \(kind)")
        let count = try previous.first?.makeRandomAccess().int64("n") ?? 0
        let sequence = Int(count) / max(record.grants.amounts.count, 1) + 1
        for (currency, amount) in record.grants.sorted {
            try await execute(
                connection,
                """
                INSERT INTO grants (transaction_id, user_id, currency, amount, kind, created_at)
                VALUES (\(id), \(owner.rawValue), \(currency), \(sign * amount), \(kind), \(at))
                """)
        }
        try await writeOutboxEvent(
            .adjustment(record, owner: owner, sign: sign, number: sequence, at: now), on: connection)
        let balances = try await rows(
            connection,
            """
            SELECT currency, SUM(amount)::BIGINT AS total FROM grants WHERE user_id = \(owner.rawValue)
            GROUP BY currency ORDER BY currency
            """)
        let negative = try balances.compactMap { row -> String? in
            let columns = row.makeRandomAccess()
            let total = try columns.int64("total")
            return total < 0 ? "\(try columns.text("currency"))=\(total)" : nil
        }
        let grantText = record.grants.sorted.map { "\($0.currency)\(sign < 0 ? "-" : "+")\($0.amount)" }
            .joined(separator: " ")
        let detail =
            "\(kind == "revoke" ? "from" : "to") \(owner) \(grantText)"
            + (negative.isEmpty ? "" : "; balance now negative: \(negative.joined(separator: ", "))")
        try await insertAudit(
            AuditEvent(
                at: now, subject: .transaction, subjectID: id, event: kind == "revoke" ? "revoked" : "restored",
                cause: cause, detail: detail),
            on: connection)
    }
}
