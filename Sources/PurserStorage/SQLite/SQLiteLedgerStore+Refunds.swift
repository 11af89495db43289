import Foundation
import PurserCore

extension SQLiteLedgerStore {
    public func revoke(_ revocation: Revocation, now: Date) async throws -> RefundOutcome {
        try await write { database in
            let id = revocation.transactionID
            guard let record = try Self.transaction(id, on: database) else {
                return .unknownTransaction
            }
            let share = revocation.share
            let (owner, previous): (UserID, Int)
            switch RefundStep.check(record, share: share) {
            case .unchanged(let why): return .unchanged(why)
            case .proceed(let who, let before): (owner, previous) = (who, before)
            }
            let balances = revocation.allowNegativeBalance ? nil : try Self.writerBalances(owner, on: database)
            let adjustment = RefundRules.revoke(
                grants: record.grants, from: previous, to: share, balances: balances)
            let at = SQLiteData.integer(Int(now.millis))
            try database.query(
                """
                UPDATE apple_transactions SET state = 'revoked', revocation_date = ?, revocation_type = ?,
                    revocation_percentage = ?, updated_at = ?
                WHERE transaction_id = ?
                """,
                [
                    .integer(Int(revocation.date.millis)), .optionalText(revocation.type?.rawValue),
                    .integer(share), at, .text(id),
                ])
            try Self.writeGrants(
                adjustment.revoked, sign: -1, kind: "revoke", of: id, owner: owner, at: at, on: database)
            let number = try Self.auditCount(id, event: "revoked", on: database) + 1
            if !adjustment.revoked.isEmpty || !adjustment.shortfall.isEmpty {
                try Self.writeOutboxEvent(
                    .revoke(
                        record, owner: owner, revoked: adjustment.revoked, shortfall: adjustment.shortfall,
                        previous: previous, share: share, type: revocation.type, number: number, at: now), on: database)
            }
            let negative = try Self.writerBalances(owner, on: database).filter { $0.value < 0 }.sorted {
                $0.key < $1.key
            }
            let detail = RefundStep.revokeDetail(
                owner: owner, adjustment: adjustment, revocation: revocation, previous: previous,
                negative: negative.map { "\($0.key)=\($0.value)" })
            try Self.writeAudit(id, event: "revoked", cause: revocation.cause, detail: detail, at: at, on: database)
            return .applied(
                owner: owner, grants: adjustment.revoked, shortfall: adjustment.shortfall, share: share)
        }
    }

    public func restore(transactionID: String, cause: String, now: Date) async throws -> RefundOutcome {
        try await write { database in
            guard let record = try Self.transaction(transactionID, on: database) else {
                return .unknownTransaction
            }
            guard record.state == .revoked, let owner = record.ownerID, !record.grants.isEmpty else {
                return .unchanged("the transaction is \(record.state.rawValue) and was never credited")
            }
            let net = try database.query(
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
            try database.query(
                """
                UPDATE apple_transactions SET state = 'credited', revocation_date = NULL, revocation_type = NULL,
                    revocation_percentage = NULL, updated_at = ?
                WHERE transaction_id = ?
                """, [at, .text(transactionID)])
            try Self.writeGrants(
                restored, sign: 1, kind: "restore", of: transactionID, owner: owner, at: at, on: database)
            let number = try Self.auditCount(transactionID, event: "restored", on: database) + 1
            if !restored.isEmpty {
                try Self.writeOutboxEvent(
                    .restore(record, owner: owner, restored: restored, number: number, at: now), on: database)
            }
            try Self.writeAudit(
                transactionID, event: "restored", cause: cause,
                detail: RefundStep.restoreDetail(owner: owner, restored: restored), at: at, on: database)
            return .applied(owner: owner, grants: restored, shortfall: .none, share: 0)
        }
    }

    /// Grant rows of `kind`: `sign` times each amount of `grants`, for `owner`.
    private static func writeGrants(
        _ grants: Grants, sign: Int64, kind: String, of id: String, owner: UserID, at: SQLiteData,
        on database: SQLiteDatabase
    ) throws {
        for (currency, amount) in grants.sorted {
            try database.query(
                "INSERT INTO grants (transaction_id, user_id, currency, amount, kind, created_at) VALUES (?, ?, ?, ?, ?, ?)",
                [.text(id), .text(owner.rawValue), .text(currency), .integer(Int(sign * amount)), .text(kind), at])
        }
    }

    /// A user's balances: their grants (credits, revokes, restores) and wallet entries (spends, deposits), summed.
    static let balancesQuery = """
        SELECT currency, SUM(amount) AS total FROM (
            SELECT currency, amount FROM grants WHERE user_id = ?
            UNION ALL SELECT currency, amount FROM wallet_entries WHERE user_id = ?)
        GROUP BY currency
        """

    /// `owner`'s balances, read on the writer inside the caller's transaction.
    static func writerBalances(_ owner: UserID, on database: SQLiteDatabase) throws -> [String: Int64] {
        let rows = try database.query(Self.balancesQuery, [.text(owner.rawValue), .text(owner.rawValue)])
        var totals: [String: Int64] = [:]
        for row in rows { totals[try row.text("currency")] = Int64(try row.int("total")) }
        return totals
    }

    /// How many audit records of `event` the transaction has: numbers its revoke and restore events.
    private static func auditCount(_ id: String, event: String, on database: SQLiteDatabase) throws -> Int {
        let rows = try database.query(
            "SELECT COUNT(*) AS n FROM audit_log WHERE subject = 'transaction' AND subject_id = ? AND event = ?",
            [.text(id), .text(event)])
        return rows.first?.column("n")?.integer ?? 0
    }

    private static func writeAudit(
        _ id: String, event: String, cause: String, detail: String, at: SQLiteData, on database: SQLiteDatabase
    ) throws {
        try database.query(
            "INSERT INTO audit_log (at, subject, subject_id, event, cause, detail) VALUES (?, 'transaction', ?, ?, ?, ?)",
            [at, .text(id), .text(event), .text(cause), .text(detail)])
    }
}
