import Foundation
import PurserCore
import SQLiteNIO

extension SQLiteLedgerStore {
    public func revoke(transactionID: String, revocationDate: Date, cause: String, now: Date) async throws
        -> RefundOutcome
    {
        try await writeLock.withLock {
            try await self.inTransaction {
                guard let record = try await Self.transaction(transactionID, on: self.writer) else {
                    return .unknownTransaction
                }
                guard record.state == .credited, let owner = record.ownerID else {
                    return .unchanged("the transaction is \(record.state.rawValue), not credited")
                }
                let at = SQLiteData.integer(Int(now.millis))
                _ = try await self.query(
                    self.writer,
                    """
                    UPDATE apple_transactions SET state = 'revoked', revocation_date = ?, updated_at = ? WHERE transaction_id = ?
                    """, [.integer(Int(revocationDate.millis)), at, .text(transactionID)])
                try await self.writeAdjustment(
                    record, owner: owner, kind: "revoke", sign: -1, cause: cause, at: at, now: now)
                return .applied(owner: owner, grants: record.grants)
            }
        }
    }

    public func restore(transactionID: String, cause: String, now: Date) async throws -> RefundOutcome {
        try await writeLock.withLock {
            try await self.inTransaction {
                guard let record = try await Self.transaction(transactionID, on: self.writer) else {
                    return .unknownTransaction
                }
                guard record.state == .revoked, let owner = record.ownerID, !record.grants.isEmpty else {
                    return .unchanged("the transaction is \(record.state.rawValue) and was never credited")
                }
                let at = SQLiteData.integer(Int(now.millis))
                _ = try await self.query(
                    self.writer,
                    """
                    UPDATE apple_transactions SET state = 'credited', revocation_date = NULL, updated_at = ? WHERE transaction_id = ?
                    """, [at, .text(transactionID)])
                try await self.writeAdjustment(
                    record, owner: owner, kind: "restore", sign: 1, cause: cause, at: at, now: now)
                return .applied(owner: owner, grants: record.grants)
            }
        }
    }

    /// Grants of `kind` (signed copies of the credit), the outbox event and the audit record of a refund or its reversal.
    private func writeAdjustment(
        _ record: LedgerTransaction, owner: UserID, kind: String, sign: Int64, cause: String,
        at: SQLiteData, now: Date
    ) async throws {
        let id = record.transaction.transactionID
        let previous = try await query(
            writer, "SELECT COUNT(*) AS n FROM grants WHERE transaction_id = ? AND kind = ?",
            [.text(id), .text(kind)])
        let sequence = (previous.first?.column("n")?.integer ?? 0) / max(record.grants.amounts.count, 1) + 1
        for (currency, amount) in record.grants.sorted {
            _ = try await query(
                writer,
                "INSERT INTO grants (transaction_id, user_id, currency, amount, kind, created_at) VALUES (?, ?, ?, ?, ?, ?)",
                [.text(id), .text(owner.rawValue), .text(currency), .integer(Int(sign * amount)), .text(kind), at])
        }
        try await writeOutboxEvent(.adjustment(record, owner: owner, sign: sign, number: sequence, at: now))
        let balances = try await query(
            writer,
            "SELECT currency, SUM(amount) AS total FROM grants WHERE user_id = ? GROUP BY currency",
            [.text(owner.rawValue)])
        let negative = try balances.filter { try $0.int("total") < 0 }.map {
            "\(try $0.text("currency"))=\(try $0.int("total"))"
        }
        let grantText = record.grants.sorted.map { "\($0.currency)\(sign < 0 ? "-" : "+")\($0.amount)" }.joined(
            separator: " ")
        let detail =
            "\(kind == "revoke" ? "from" : "to") \(owner) \(grantText)"
            + (negative.isEmpty ? "" : "; balance now negative: \(negative.joined(separator: ", "))")
        _ = try await query(
            writer,
            "INSERT INTO audit_log (at, subject, subject_id, event, cause, detail) VALUES (?, 'transaction', ?, ?, ?, ?)",
            [at, .text(id), .text(kind == "revoke" ? "revoked" : "restored"), .text(cause), .text(detail)])
    }
}
