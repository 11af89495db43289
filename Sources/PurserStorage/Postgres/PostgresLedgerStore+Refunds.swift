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
            let id = revocation.transactionID
            guard let record = try await self.lockedTransaction(id, on: connection) else {
                return .unknownTransaction
            }
            let share = revocation.share
            let (owner, previous): (UserID, Int)
            switch RefundStep.check(record, share: share) {
            case .unchanged(let why): return .unchanged(why)
            case .proceed(let who, let before): (owner, previous) = (who, before)
            }
            var balances: [String: Int64]?
            if !revocation.allowNegativeBalance {
                try await self.execute(
                    connection,
                    "SELECT pg_advisory_xact_lock(\(Self.balanceLockKey), hashtext(\(owner.rawValue)))")
                balances = try await self.balances(owner, on: connection)
            }
            let adjustment = RefundRules.revoke(grants: record.grants, from: previous, to: share, balances: balances)
            try await self.execute(
                connection,
                """
                UPDATE apple_transactions SET state = 'revoked', revocation_date = \(revocation.date.millis),
                    revocation_type = \(revocation.type?.rawValue), revocation_percentage = \(share),
                    updated_at = \(now.millis)
                WHERE transaction_id = \(id)
                """)
            try await self.writeGrants(
                adjustment.revoked, sign: -1, kind: "revoke", of: id, owner: owner, on: connection, at: now)
            let number = try await self.auditCount(id, event: "revoked", on: connection) + 1
            if !adjustment.revoked.isEmpty || !adjustment.shortfall.isEmpty {
                try await self.writeOutboxEvent(
                    .revoke(
                        record, owner: owner, revoked: adjustment.revoked, shortfall: adjustment.shortfall,
                        previous: previous, share: share, type: revocation.type, number: number, at: now),
                    on: connection)
            }
            let negative = try await self.balances(owner, on: connection).filter { $0.value < 0 }
                .sorted { $0.key < $1.key }
            let detail = RefundStep.revokeDetail(
                owner: owner, adjustment: adjustment, revocation: revocation, previous: previous,
                negative: negative.map { "\($0.key)=\($0.value)" })
            try await self.insertAudit(
                AuditEvent(
                    at: now, subject: .transaction, subjectID: id, event: "revoked", cause: revocation.cause,
                    detail: detail),
                on: connection)
            return .applied(owner: owner, grants: adjustment.revoked, shortfall: adjustment.shortfall, share: share)
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
            let net = try await self.rows(
                connection,
                """
                SELECT currency, (-SUM(amount))::BIGINT AS revoked FROM grants
                WHERE transaction_id = \(transactionID) AND kind IN ('revoke', 'restore') GROUP BY currency
                """)
            var revoked: [String: Int64] = [:]
            for row in net {
                let columns = row.makeRandomAccess()
                let amount = try columns.int64("revoked")
                if amount > 0 { revoked[try columns.text("currency")] = amount }
            }
            let restored = Grants(revoked)
            try await self.execute(
                connection,
                """
                UPDATE apple_transactions SET state = 'credited', revocation_date = NULL, revocation_type = NULL,
                    revocation_percentage = NULL, updated_at = \(now.millis)
                WHERE transaction_id = \(transactionID)
                """)
            try await self.writeGrants(
                restored, sign: 1, kind: "restore", of: transactionID, owner: owner, on: connection, at: now)
            let number = try await self.auditCount(transactionID, event: "restored", on: connection) + 1
            if !restored.isEmpty {
                try await self.writeOutboxEvent(
                    .restore(record, owner: owner, restored: restored, number: number, at: now), on: connection)
            }
            try await self.insertAudit(
                AuditEvent(
                    at: now, subject: .transaction, subjectID: transactionID, event: "restored", cause: cause,
                    detail: RefundStep.restoreDetail(owner: owner, restored: restored)),
                on: connection)
            return .applied(owner: owner, grants: restored, shortfall: .none, share: 0)
        }
    }

    /// The first key of the owner balance locks (with `hashtext(user_id)` as the second): "purb" in ASCII.
    static let balanceLockKey: Int32 = 0x7075_7262

    /// Grant rows of `kind`: `sign` times each amount of `grants`, for `owner`.
    private func writeGrants(
        _ grants: Grants, sign: Int64, kind: String, of id: String, owner: UserID, on connection: PostgresConnection,
        at now: Date
    ) async throws {
        for (currency, amount) in grants.sorted {
            try await execute(
                connection,
                """
                INSERT INTO grants (transaction_id, user_id, currency, amount, kind, created_at)
                VALUES (\(id), \(owner.rawValue), \(currency), \(sign * amount), \(kind), \(now.millis))
                """)
        }
    }

    /// `owner`'s balances, inside the caller's transaction.
    /// `owner`'s balances: their grants (credits, revokes, restores) and wallet entries (spends, deposits), summed.
    func balances(_ owner: UserID, on connection: PostgresConnection) async throws -> [String: Int64] {
        let rows = try await rows(
            connection,
            """
            SELECT currency, SUM(amount)::BIGINT AS total FROM (
                SELECT currency, amount FROM grants WHERE user_id = \(owner.rawValue)
                UNION ALL SELECT currency, amount FROM wallet_entries WHERE user_id = \(owner.rawValue)) AS entries
            GROUP BY currency
            """)
        var totals: [String: Int64] = [:]
        for row in rows {
            let columns = row.makeRandomAccess()
            totals[try columns.text("currency")] = try columns.int64("total")
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
