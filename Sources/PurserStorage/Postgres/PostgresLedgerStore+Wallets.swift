import Foundation
import PostgresNIO
import PurserCore

extension PostgresLedgerStore {
    /// The advisory lock class of wallet idempotency ids (with `hashtext(id)`): "purw" in ASCII.
    static let walletIDLockKey: Int32 = 0x7075_7277

    /// Queues the request for the next wallet batch (`applyWalletBatch`) and returns its outcome once that batch has
    /// committed: applied, replayed, a conflict or insufficient, decided under the id's and the user's locks.
    public func applyWalletTransaction(_ request: WalletTransaction.Request, now: Date) async throws
        -> WalletTransaction.Outcome
    {
        try await walletBatcher.submit(request, now: now)
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
        try await insertAudit(WalletRules.audit(change), on: connection)
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
                SELECT at, source, row, kind, ref, amounts, cause, reason, balances FROM (
                    SELECT created_at AS at, 'g'::TEXT AS source, MAX(row) AS row, kind, transaction_id AS ref,
                        json_object_agg(currency, amount)::TEXT AS amounts, NULL::TEXT AS cause, NULL::TEXT AS reason,
                        NULL::TEXT AS balances
                    FROM (
                        SELECT created_at, MAX(id) AS row, kind, transaction_id, currency, SUM(amount) AS amount
                        FROM grants WHERE user_id = \(user.rawValue)
                        GROUP BY transaction_id, kind, created_at, currency) AS per_currency
                    GROUP BY transaction_id, kind, created_at
                    UNION ALL
                    SELECT created_at, 'w'::TEXT, id, ''::TEXT, idempotency_id, amounts, cause, reason, balances
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
                    cause: try row.optionalText("cause"), reason: try row.optionalText("reason"),
                    balances: try row.optionalText("balances"))
            )
        }
        return WalletHistoryPage(rows: entries, limit: limit)
    }
}
