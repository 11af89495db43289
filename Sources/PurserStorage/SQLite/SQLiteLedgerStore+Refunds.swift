import Foundation
import PurserCore

extension SQLiteLedgerStore {
    /// Reads the record and its owner's balances on the writer, plans with `RefundRules` and applies the plan, in
    /// one write.
    public func revoke(_ revocation: Revocation, now: Date) async throws -> RefundOutcome {
        try await write { database in
            guard let record = try Self.transaction(revocation.transactionID, on: database) else {
                return .unknownTransaction
            }
            let balances = try record.ownerID.map { try Self.writerBalances($0, on: database) } ?? [:]
            let plan = try RefundRules.plan(revoke: revocation, of: record, balances: balances, now: now)
            try Self.apply(plan, of: record, at: now, outbox: self.outbox, on: database)
            return plan.outcome
        }
    }

    public func restore(transactionID: String, cause: String, now: Date) async throws -> RefundOutcome {
        try await write { database in
            guard let record = try Self.transaction(transactionID, on: database) else {
                return .unknownTransaction
            }
            let net = try database.query(
                """
                SELECT currency, -SUM(amount) AS revoked FROM grants
                WHERE transaction_id = ? AND kind IN ('revoke', 'restore') GROUP BY currency
                """, [.text(transactionID)])
            var revoked: [String: Int64] = [:]
            for row in net { revoked[try row.text("currency")] = Int64(try row.int("revoked")) }
            let plan = RefundRules.plan(restore: record, revoked: Amounts(revoked), cause: cause, now: now)
            try Self.apply(plan, of: record, at: now, outbox: self.outbox, on: database)
            return plan.outcome
        }
    }

    private static func apply(
        _ plan: RefundPlan, of record: LedgerTransaction, at now: Date, outbox: OutboxIdentity,
        on database: SQLiteDatabase
    ) throws {
        let at = SQLiteData.integer(Int(now.millis))
        let id = SQLiteData.text(record.transaction.transactionID)
        switch plan {
        case .unchanged:
            return
        case .revoke(let revoke):
            try database.query(
                """
                UPDATE apple_transactions SET state = 'revoked', revocation_date = ?, revocation_type = ?,
                    revocation_percentage = ?, updated_at = ?
                WHERE transaction_id = ?
                """,
                [
                    .integer(Int(revoke.date.millis)), .optionalText(revoke.type?.rawValue), .integer(revoke.share),
                    at, id,
                ])
            try writeRevoke(revoke, of: record, at: now, outbox: outbox, on: database)
            try insertAudit(revoke.audit, on: database)
        case .restore(let restore):
            try database.query(
                """
                UPDATE apple_transactions SET state = 'credited', revocation_date = NULL, revocation_type = NULL,
                    revocation_percentage = NULL, updated_at = ?
                WHERE transaction_id = ?
                """, [at, id])
            try writeGrants(
                restore.restored.money, kind: "restore", of: restore.transactionID, owner: restore.owner, at: at,
                on: database)
            let number = try auditCount(restore.transactionID, event: "restored", on: database) + 1
            if !restore.restored.isEmpty {
                try writeOutboxEvent(
                    .restore(record, owner: restore.owner, restored: restore.restored, number: number, at: now),
                    outbox: outbox, on: database)
            }
            try insertAudit(restore.audit, on: database)
        case .note(let note):
            try database.query(
                """
                UPDATE apple_transactions SET state = ?, revocation_date = ?, revocation_type = ?,
                    revocation_percentage = ?, updated_at = ?
                WHERE transaction_id = ?
                """,
                [
                    .text(note.state.rawValue), .optionalInteger(note.date?.millis), .optionalText(note.type?.rawValue),
                    .optionalInteger(note.share), at, id,
                ])
            try insertAudit(note.audit, on: database)
        }
    }

    /// A revoke's grant rows and its `transaction.revoked` event, inside the caller's write (a refund's, or the
    /// settlement's that credits a purchase Apple had refunded in part); the caller writes its audit record.
    static func writeRevoke(
        _ revoke: RevokePlan, of record: LedgerTransaction, at now: Date, outbox: OutboxIdentity,
        on database: SQLiteDatabase
    ) throws {
        let at = SQLiteData.integer(Int(now.millis))
        try writeGrants(
            try revoke.grantRows, kind: "revoke", of: revoke.transactionID, owner: revoke.owner, at: at, on: database)
        let number = try auditCount(revoke.transactionID, event: "revoked", on: database) + 1
        if revoke.writesEvent {
            try writeOutboxEvent(
                try .revoke(
                    record, owner: revoke.owner, revoked: revoke.adjustment.revoked,
                    shortfall: revoke.adjustment.shortfall, previous: revoke.previous, share: revoke.share,
                    type: revoke.type, number: number, at: now), outbox: outbox, on: database)
        }
    }

    /// Grant rows of `kind`, one per currency of `amounts` (signed as they are), for `owner`.
    private static func writeGrants(
        _ amounts: Amounts, kind: String, of id: String, owner: UserID, at: SQLiteData, on database: SQLiteDatabase
    ) throws {
        for (currency, amount) in amounts.sorted {
            try database.query(
                "INSERT INTO grants (transaction_id, user_id, currency, amount, kind, created_at) VALUES (?, ?, ?, ?, ?, ?)",
                [.text(id), .text(owner.rawValue), .text(currency), .integer(Int(amount)), .text(kind), at])
        }
    }

    /// A user's balances: the stored sums of their grants (credits, revokes, restores) and wallet entries (spends,
    /// deposits), `LedgerBalances`; a balance beyond `Int64` reads as `AmountError`, not as a failed query.
    static let balancesQuery = "SELECT currency, high AS total_high, low AS total_low FROM balances WHERE user_id = ?"

    /// The balances `balancesQuery` read.
    static func balances(from rows: [SQLiteRow]) throws -> [String: Int64] {
        var totals: [String: Int64] = [:]
        for row in rows {
            let currency = try row.text("currency")
            totals[currency] = try SplitSum.total(
                high: Int64(try row.int("total_high")), low: Int64(try row.int("total_low")), currency: currency)
        }
        return totals
    }

    /// `owner`'s balances, read on the writer inside the caller's transaction.
    static func writerBalances(_ owner: UserID, on database: SQLiteDatabase) throws -> [String: Int64] {
        try balances(from: try database.query(Self.balancesQuery, [.text(owner.rawValue)]))
    }

    /// How many audit records of `event` the transaction has: numbers its revoke and restore events.
    private static func auditCount(_ id: String, event: String, on database: SQLiteDatabase) throws -> Int {
        let rows = try database.query(
            "SELECT COUNT(*) AS n FROM audit_log WHERE subject = 'transaction' AND subject_id = ? AND event = ?",
            [.text(id), .text(event)])
        return rows.first?.column("n")?.integer ?? 0
    }
}
