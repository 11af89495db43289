import Foundation
import PurserCore
import SQLiteNIO

extension SQLiteLedgerStore {
    public func revoke(_ revocation: Revocation, now: Date) async throws -> RefundOutcome {
        try await writeLock.withLock {
            try await self.inTransaction {
                let id = revocation.transactionID
                guard let record = try await Self.transaction(id, on: self.writer) else {
                    return .unknownTransaction
                }
                let share = revocation.share
                let (owner, previous): (UserID, Int)
                switch RefundStep.check(record, share: share) {
                case .unchanged(let why): return .unchanged(why)
                case .proceed(let who, let before): (owner, previous) = (who, before)
                }
                let balances = revocation.allowNegativeBalance ? nil : try await self.writerBalances(owner)
                let adjustment = RefundRules.revoke(
                    grants: record.grants, from: previous, to: share, balances: balances)
                let at = SQLiteData.integer(Int(now.millis))
                _ = try await self.query(
                    self.writer,
                    """
                    UPDATE apple_transactions SET state = 'revoked', revocation_date = ?, revocation_type = ?,
                        revocation_percentage = ?, updated_at = ?
                    WHERE transaction_id = ?
                    """,
                    [
                        .integer(Int(revocation.date.millis)), .optionalText(revocation.type?.rawValue),
                        .integer(share), at, .text(id),
                    ])
                try await self.writeGrants(adjustment.revoked, sign: -1, kind: "revoke", of: id, owner: owner, at: at)
                let number = try await self.auditCount(id, event: "revoked") + 1
                if !adjustment.revoked.isEmpty || !adjustment.shortfall.isEmpty {
                    try await self.writeOutboxEvent(
                        .revoke(
                            record, owner: owner, revoked: adjustment.revoked, shortfall: adjustment.shortfall,
                            previous: previous, share: share, type: revocation.type, number: number, at: now))
                }
                let negative = try await self.writerBalances(owner).filter { $0.value < 0 }.sorted { $0.key < $1.key }
                let detail = RefundStep.revokeDetail(
                    owner: owner, adjustment: adjustment, revocation: revocation, previous: previous,
                    negative: negative.map { "\($0.key)=\($0.value)" })
                try await self.writeAudit(id, event: "revoked", cause: revocation.cause, detail: detail, at: at)
                return .applied(
                    owner: owner, grants: adjustment.revoked, shortfall: adjustment.shortfall, share: share)
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
                let net = try await self.query(
                    self.writer,
                    """
                    SELECT currency, -SUM(amount) AS revoked FROM grants
                    WHERE transaction_id = ? AND kind IN ('revoke', 'restore') GROUP BY currency
                    """, [.text(transactionID)])
                var revoked: [String: Int64] = [:]
                for row in net where try row.int("revoked") > 0 {
                    revoked[try row.text("currency")] = Int64(try row.int("revoked"))
                }
                let restored = Grants(revoked)
                let at = SQLiteData.integer(Int(now.millis))
                _ = try await self.query(
                    self.writer,
                    """
                    UPDATE apple_transactions SET state = 'credited', revocation_date = NULL, revocation_type = NULL,
                        revocation_percentage = NULL, updated_at = ?
                    WHERE transaction_id = ?
                    """, [at, .text(transactionID)])
                try await self.writeGrants(restored, sign: 1, kind: "restore", of: transactionID, owner: owner, at: at)
                let number = try await self.auditCount(transactionID, event: "restored") + 1
                if !restored.isEmpty {
                    try await self.writeOutboxEvent(
                        .restore(record, owner: owner, restored: restored, number: number, at: now))
                }
                try await self.writeAudit(
                    transactionID, event: "restored", cause: cause,
                    detail: RefundStep.restoreDetail(owner: owner, restored: restored), at: at)
                return .applied(owner: owner, grants: restored, shortfall: .none, share: 0)
            }
        }
    }

    /// Grant rows of `kind`: `sign` times each amount of `grants`, for `owner`.
    private func writeGrants(
        _ grants: Grants, sign: Int64, kind: String, of id: String, owner: UserID, at: SQLiteData
    ) async throws {
        for (currency, amount) in grants.sorted {
            _ = try await query(
                writer,
                "INSERT INTO grants (transaction_id, user_id, currency, amount, kind, created_at) VALUES (?, ?, ?, ?, ?, ?)",
                [.text(id), .text(owner.rawValue), .text(currency), .integer(Int(sign * amount)), .text(kind), at])
        }
    }

    /// `owner`'s balances, read on the writer inside the caller's transaction.
    private func writerBalances(_ owner: UserID) async throws -> [String: Int64] {
        let rows = try await query(
            writer, "SELECT currency, SUM(amount) AS total FROM grants WHERE user_id = ? GROUP BY currency",
            [.text(owner.rawValue)])
        var totals: [String: Int64] = [:]
        for row in rows { totals[try row.text("currency")] = Int64(try row.int("total")) }
        return totals
    }

    /// How many audit records of `event` the transaction has: numbers its revoke and restore events.
    private func auditCount(_ id: String, event: String) async throws -> Int {
        let rows = try await query(
            writer,
            "SELECT COUNT(*) AS n FROM audit_log WHERE subject = 'transaction' AND subject_id = ? AND event = ?",
            [.text(id), .text(event)])
        return rows.first?.column("n")?.integer ?? 0
    }

    private func writeAudit(_ id: String, event: String, cause: String, detail: String, at: SQLiteData) async throws {
        _ = try await query(
            writer,
            "INSERT INTO audit_log (at, subject, subject_id, event, cause, detail) VALUES (?, 'transaction', ?, ?, ?, ?)",
            [at, .text(id), .text(event), .text(cause), .text(detail)])
    }
}
