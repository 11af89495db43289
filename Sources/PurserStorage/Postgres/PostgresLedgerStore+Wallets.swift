import Foundation
import PostgresNIO
import PurserCore

extension PostgresLedgerStore {
    /// The advisory lock class of wallet idempotency ids (with `hashtext(id)`): "purw" in ASCII.
    static let walletIDLockKey: Int32 = 0x7075_7277

    /// Takes the id's lock, then the user's balance lock (the one refunds take), always in that order: two requests
    /// with one id apply one after the other (the second replays or conflicts), and no spend, other spend or refund
    /// of the user changes the balance between the check and the write.
    public func applyWalletTransaction(_ request: WalletTransaction.Request, now: Date) async throws
        -> WalletTransaction.Outcome
    {
        try await inTransaction { connection in
            try await self.execute(
                connection, "SELECT pg_advisory_xact_lock(\(Self.walletIDLockKey), hashtext(\(request.id)))")
            if let existing = try await self.walletTransaction(request.id, on: connection) {
                let differing = existing.request.differences(from: request)
                return differing.isEmpty ? .replayed(existing) : .conflict(differing)
            }
            let user = request.userID.rawValue
            try await self.execute(
                connection, "SELECT pg_advisory_xact_lock(\(Self.balanceLockKey), hashtext(\(user)))")
            let balances = try await self.balances(request.userID, on: connection)
            let spent = request.amounts.filter { $0.value < 0 }.mapValues { -$0 }
            let held = try await self.heldAmounts(request.userID, now: now, on: connection)
            if let short = WalletHoldRules.shortfall(spent, balances: balances, held: held) {
                return .insufficient(
                    currency: short.currency, balance: short.available, requested: spent[short.currency] ?? 0)
            }
            let change = WalletTransaction(
                request: request, balances: WalletRows.after(request, from: balances),
                recordedAt: Date(millis: now.millis))
            try await self.writeWalletTransaction(change, on: connection)
            return .applied(change)
        }
    }

    /// Writes an applied wallet transaction inside the caller's transaction: its row, its entries, its
    /// `wallet.changed` event and its audit record.
    func writeWalletTransaction(_ change: WalletTransaction, on connection: PostgresConnection) async throws {
        let request = change.request
        let user = request.userID.rawValue
        let inserted = try await rows(
            connection,
            """
            INSERT INTO wallet_transactions
                (idempotency_id, user_id, amounts, reason, metadata, cause, balances, created_at)
            VALUES (\(request.id), \(user), \(try WalletRows.json(request.amounts)), \(request.reason),
                \(request.metadata), \(request.cause), \(try WalletRows.json(change.balances)),
                \(change.recordedAt.millis))
            RETURNING id
            """)
        guard let row = try inserted.first?.makeRandomAccess().int64("id") else {
            throw StorageError(.corrupt, "a wallet transaction's id did not come back")
        }
        let currencies = request.amounts.keys.sorted()
        try await execute(
            connection,
            """
            INSERT INTO wallet_entries (wallet_transaction_id, user_id, currency, amount)
            SELECT \(row), \(user), c, a
            FROM unnest(\(currencies)::TEXT[], \(currencies.map { request.amounts[$0] ?? 0 })::BIGINT[]) AS u(c, a)
            """)
        try await writeOutboxEvent(.walletChanged(change, row: row), on: connection)
        try await insertAudit(WalletRows.audit(change), on: connection)
    }

    private func walletTransaction(_ id: String, on connection: PostgresConnection) async throws
        -> WalletTransaction?
    {
        let rows = try await rows(
            connection,
            """
            SELECT user_id, amounts, reason, metadata, cause, balances, created_at FROM wallet_transactions
            WHERE idempotency_id = \(id)
            """)
        guard let row = rows.first?.makeRandomAccess() else { return nil }
        return WalletTransaction(
            request: .init(
                id: id, userID: UserID(try row.text("user_id")),
                amounts: try WalletRows.amounts(try row.text("amounts")),
                reason: try row.text("reason"), metadata: try row.optionalText("metadata"), cause: try row.text("cause")
            ),
            balances: try WalletRows.amounts(try row.text("balances")),
            recordedAt: Date(millis: try row.int64("created_at")))
    }
}

extension PostgresLedgerStore {
    public func walletHistory(of user: UserID, after cursor: WalletHistoryEntry.Cursor?, limit: Int) async throws
        -> WalletHistoryPage
    {
        let start = cursor ?? WalletHistoryPage.start
        let rows = try await withConnection { connection in
            try await self.rows(
                connection,
                """
                SELECT at, source, row, kind, ref, amounts, cause, reason FROM (
                    SELECT created_at AS at, 'g'::TEXT AS source, MAX(row) AS row, kind, transaction_id AS ref,
                        json_object_agg(currency, amount)::TEXT AS amounts, NULL::TEXT AS cause, NULL::TEXT AS reason
                    FROM (
                        SELECT created_at, MAX(id) AS row, kind, transaction_id, currency, SUM(amount) AS amount
                        FROM grants WHERE user_id = \(user.rawValue)
                        GROUP BY transaction_id, kind, created_at, currency) AS per_currency
                    GROUP BY transaction_id, kind, created_at
                    UNION ALL
                    SELECT created_at, 'w'::TEXT, id, ''::TEXT, idempotency_id, amounts, cause, reason
                    FROM wallet_transactions WHERE user_id = \(user.rawValue)) AS history
                WHERE (at, source, row) < (\(start.at), \(start.source), \(start.row))
                ORDER BY at DESC, source DESC, row DESC LIMIT \(limit + 1)
                """)
        }
        let entries = try rows.map { raw in
            let row = raw.makeRandomAccess()
            return (
                WalletHistoryEntry.Cursor(
                    at: try row.int64("at"), source: try row.text("source"), row: try row.int64("row")),
                try WalletHistoryPage.entry(
                    at: try row.int64("at"), source: try row.text("source"), kind: try row.text("kind"),
                    reference: try row.text("ref"), amounts: try row.text("amounts"),
                    cause: try row.optionalText("cause"), reason: try row.optionalText("reason"))
            )
        }
        return WalletHistoryPage(rows: entries, limit: limit)
    }
}
