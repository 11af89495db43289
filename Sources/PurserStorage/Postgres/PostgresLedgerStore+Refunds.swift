import Foundation
import PostgresNIO
import PurserCore

extension PostgresLedgerStore {
    /// The transaction's row is locked first, so a refund and its reversal (or two copies of one notification on two
    /// replicas) apply one after the other, the second seeing the first's state. A revoke that must stop at a zero
    /// balance also takes a transaction-level advisory lock on the owner before reading the balance, so two refunds
    /// of one user's transactions on two replicas cannot both spend the same balance.
    public func revoke(_ revocation: Revocation, now: Date) async throws -> RefundOutcome {
        try await inTransaction { connection in
            guard let record = try await self.lockedTransaction(revocation.transactionID, on: connection) else {
                return .unknownTransaction
            }
            var balances: [String: Int64] = [:]
            if let owner = record.ownerID {
                if !revocation.allowNegativeBalance {
                    try await self.execute(
                        connection,
                        "SELECT pg_advisory_xact_lock(\(Self.balanceLockKey), hashtext(\(owner.rawValue)))")
                }
                balances = try await self.balances(owner, on: connection)
            }
            let plan = try RefundRules.plan(revoke: revocation, of: record, balances: balances, now: now)
            try await self.apply(plan, of: record, at: now, on: connection)
            return plan.outcome
        }
    }

    public func restore(transactionID: String, cause: String, now: Date) async throws -> RefundOutcome {
        try await inTransaction { connection in
            guard let record = try await self.lockedTransaction(transactionID, on: connection) else {
                return .unknownTransaction
            }
            let net = try await self.rows(
                connection,
                """
                SELECT currency, (-SUM(amount))::BIGINT AS revoked FROM grants
                WHERE transaction_id = \(transactionID) AND kind IN ('revoke', 'restore') GROUP BY currency
                """)
            var revoked: [String: Int64] = [:]
            for row in net {
                let columns = row.makeRandomAccess()
                revoked[try columns.text("currency")] = try columns.int64("revoked")
            }
            let plan = RefundRules.plan(restore: record, revoked: Amounts(revoked), cause: cause, now: now)
            try await self.apply(plan, of: record, at: now, on: connection)
            return plan.outcome
        }
    }

    private func apply(
        _ plan: RefundPlan, of record: LedgerTransaction, at now: Date, on connection: PostgresConnection
    )
        async throws
    {
        let id = record.transaction.transactionID
        switch plan {
        case .unchanged:
            return
        case .revoke(let revoke):
            try await execute(
                connection,
                """
                UPDATE apple_transactions SET state = 'revoked', revocation_date = \(revoke.date.millis),
                    revocation_type = \(revoke.type?.rawValue), revocation_percentage = \(revoke.share),
                    updated_at = \(now.millis)
                WHERE transaction_id = \(id)
                """)
            try await writeGrants(
                try revoke.grantRows, kind: "revoke", of: id, owner: revoke.owner, on: connection, at: now)
            let number = try await auditCount(id, event: "revoked", on: connection) + 1
            if revoke.writesEvent {
                try await writeOutboxEvent(
                    try .revoke(
                        record, owner: revoke.owner, revoked: revoke.adjustment.revoked,
                        shortfall: revoke.adjustment.shortfall, previous: revoke.previous, share: revoke.share,
                        type: revoke.type, number: number, at: now),
                    on: connection)
            }
            try await insertAudit(revoke.audit, on: connection)
        case .restore(let restore):
            try await execute(
                connection,
                """
                UPDATE apple_transactions SET state = 'credited', revocation_date = NULL, revocation_type = NULL,
                    revocation_percentage = NULL, updated_at = \(now.millis)
                WHERE transaction_id = \(id)
                """)
            try await writeGrants(
                restore.restored.money, kind: "restore", of: id, owner: restore.owner, on: connection, at: now)
            let number = try await auditCount(id, event: "restored", on: connection) + 1
            if !restore.restored.isEmpty {
                try await writeOutboxEvent(
                    .restore(record, owner: restore.owner, restored: restore.restored, number: number, at: now),
                    on: connection)
            }
            try await insertAudit(restore.audit, on: connection)
        case .note(let note):
            try await execute(
                connection,
                """
                UPDATE apple_transactions SET state = \(note.state.rawValue), revocation_date = \(note.date?.millis),
                    revocation_type = \(note.type?.rawValue), revocation_percentage = \(note.share.map(Int64.init)),
                    updated_at = \(now.millis)
                WHERE transaction_id = \(id)
                """)
            try await insertAudit(note.audit, on: connection)
        }
    }

    /// The first key of the owner balance locks (with `hashtext(user_id)` as the second): "purb" in ASCII.
    static let balanceLockKey: Int32 = 0x7075_7262

    /// Grant rows of `kind`, one per currency of `amounts` (signed as they are), for `owner`.
    private func writeGrants(
        _ amounts: Amounts, kind: String, of id: String, owner: UserID, on connection: PostgresConnection,
        at now: Date
    ) async throws {
        for (currency, amount) in amounts.sorted {
            try await execute(
                connection,
                """
                INSERT INTO grants (transaction_id, user_id, currency, amount, kind, created_at)
                VALUES (\(id), \(owner.rawValue), \(currency), \(amount), \(kind), \(now.millis))
                """)
        }
    }

    /// `owner`'s balances: the stored sums of their grants (credits, revokes, restores) and wallet entries (spends,
    /// deposits), `LedgerBalances`; a balance beyond `Int64` reads as `AmountError`, not as a failed query.
    func balances(_ owner: UserID, on connection: PostgresConnection) async throws -> [String: Int64] {
        let rows = try await rows(
            connection,
            """
            SELECT currency, high AS total_high, low AS total_low FROM balances WHERE user_id = \(owner.rawValue)
            """)
        var totals: [String: Int64] = [:]
        for row in rows {
            let columns = row.makeRandomAccess()
            let currency = try columns.text("currency")
            totals[currency] = try SplitSum.total(
                high: try columns.int64("total_high"), low: try columns.int64("total_low"), currency: currency)
        }
        return totals
    }

    /// How many audit records of `event` the transaction has: numbers its revoke and restore events.
    private func auditCount(_ id: String, event: String, on connection: PostgresConnection) async throws -> Int {
        let rows = try await rows(
            connection,
            """
            SELECT COUNT(*)::BIGINT AS n FROM audit_log
            WHERE subject = 'transaction' AND subject_id = \(id) AND event = \(event)
            """)
        return Int(try rows.first?.makeRandomAccess().int64("n") ?? 0)
    }
}
