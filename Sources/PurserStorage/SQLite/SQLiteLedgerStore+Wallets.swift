import Foundation
import PurserCore

extension SQLiteLedgerStore {
    /// On the one writer, so nothing else changes the balance between the check and the write.
    public func applyWalletTransaction(_ request: WalletTransaction.Request, now: Date) async throws
        -> WalletTransaction.Outcome
    {
        try await write { database in
            let outcome = try WalletRules.plan(
                request, existing: try Self.walletTransaction(request.id, on: database),
                balances: try Self.writerBalances(request.userID, on: database),
                held: try Self.heldAmounts(request.userID, now: now, on: database), now: now)
            if case .applied(let change) = outcome {
                try Self.writeWalletTransaction(change, outbox: self.outbox, on: database)
            }
            return outcome
        }
    }

    /// Writes an applied wallet transaction inside the caller's transaction: its row, its entries, its
    /// `wallet.changed` event and its audit record.
    static func writeWalletTransaction(
        _ change: WalletTransaction, outbox: OutboxIdentity, on database: SQLiteDatabase
    ) throws {
        let request = change.request
        let user = SQLiteData.text(request.userID.rawValue)
        let inserted = try database.query(
            """
            INSERT INTO wallet_transactions
                (idempotency_id, user_id, amounts, reason, metadata, cause, balances, created_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id
            """,
            [
                .text(request.id), user, .text(try WalletRows.json(request.amounts)), .text(request.reason),
                .optionalText(request.metadata), .text(request.cause), .text(try WalletRows.json(change.balances)),
                .integer(Int(change.recordedAt.millis)),
            ])
        let row = try inserted.first?.int("id") ?? 0
        for (currency, amount) in request.amounts.sorted(by: { $0.key < $1.key }) {
            try database.query(
                "INSERT INTO wallet_entries (wallet_transaction_id, user_id, currency, amount) VALUES (?, ?, ?, ?)",
                [.integer(row), user, .text(currency), .integer(Int(amount))])
        }
        try writeOutboxEvent(.walletChanged(change, row: Int64(row)), outbox: outbox, on: database)
        try insertAudit(WalletRules.audit(change), on: database)
    }

    /// The wallet transaction recorded with idempotency id `id`, if any.
    static func walletTransaction(_ id: String, on database: SQLiteDatabase) throws -> WalletTransaction? {
        let rows = try database.query(
            """
            SELECT user_id, amounts, reason, metadata, cause, balances, created_at FROM wallet_transactions
            WHERE idempotency_id = ?
            """, [.text(id)])
        guard let row = rows.first else { return nil }
        return WalletTransaction(
            request: .init(
                id: id, userID: UserID(try row.text("user_id")),
                amounts: try WalletRows.amounts(try row.text("amounts")),
                reason: try row.text("reason"), metadata: row.optionalText("metadata"), cause: try row.text("cause")),
            balances: try WalletRows.amounts(try row.text("balances")),
            recordedAt: Date(millis: try row.int("created_at")))
    }
}

extension SQLiteLedgerStore {
    public func walletHistory(of user: UserID, after cursor: WalletHistoryEntry.Cursor?, limit: Int) async throws
        -> WalletHistoryPage
    {
        let start = cursor ?? WalletHistoryPage.start
        let rows = try await read(
            """
            SELECT at, source, row, kind, ref, amounts, cause, reason, balances FROM (
                SELECT created_at AS at, 'g' AS source, MAX(row) AS row, kind, transaction_id AS ref,
                    json_group_object(currency, amount) AS amounts, NULL AS cause, NULL AS reason, NULL AS balances
                FROM (
                    SELECT created_at, MAX(id) AS row, kind, transaction_id, currency, SUM(amount) AS amount
                    FROM grants WHERE user_id = ? GROUP BY transaction_id, kind, created_at, currency)
                GROUP BY transaction_id, kind, created_at
                UNION ALL
                SELECT created_at, 'w', id, '', idempotency_id, amounts, cause, reason, balances
                FROM wallet_transactions WHERE user_id = ?)
            WHERE (at, source, row) < (?, ?, ?)
            ORDER BY at DESC, source DESC, row DESC LIMIT ?
            """,
            [
                .text(user.rawValue), .text(user.rawValue), .integer(Int(start.at)), .text(start.source),
                .integer(Int(start.row)), .integer(limit + 1),
            ])
        let entries = try rows.map { row in
            (
                WalletHistoryEntry.Cursor(
                    at: Int64(try row.int("at")), source: try row.text("source"), row: Int64(try row.int("row"))),
                try WalletHistoryPage.entry(
                    at: Int64(try row.int("at")), source: try row.text("source"), kind: try row.text("kind"),
                    reference: try row.text("ref"), amounts: try row.text("amounts"), cause: row.optionalText("cause"),
                    reason: row.optionalText("reason"), balances: row.optionalText("balances"))
            )
        }
        return WalletHistoryPage(rows: entries, limit: limit)
    }
}
