import Foundation
import PurserCore

extension SQLiteLedgerStore {
    /// On the one writer, so nothing else changes the balance between the check and the write.
    public func applyWalletTransaction(_ request: WalletTransaction.Request, now: Date) async throws
        -> WalletTransaction.Outcome
    {
        try await write { database in
            if let existing = try Self.walletTransaction(request.id, on: database) {
                let differing = existing.request.differences(from: request)
                return differing.isEmpty ? .replayed(existing) : .conflict(differing)
            }
            let balances = try Self.writerBalances(request.userID, on: database)
            if let short = request.shortfall(in: balances) {
                return .insufficient(
                    currency: short.currency, balance: short.balance, requested: -(request.amounts[short.currency] ?? 0)
                )
            }
            let change = WalletTransaction(
                request: request, balances: WalletRows.after(request, from: balances),
                recordedAt: Date(millis: now.millis))
            let at = SQLiteData.integer(Int(now.millis))
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
                    at,
                ])
            let row = try inserted.first?.int("id") ?? 0
            for (currency, amount) in request.amounts.sorted(by: { $0.key < $1.key }) {
                try database.query(
                    "INSERT INTO wallet_entries (wallet_transaction_id, user_id, currency, amount) VALUES (?, ?, ?, ?)",
                    [.integer(row), user, .text(currency), .integer(Int(amount))])
            }
            try Self.writeOutboxEvent(.walletChanged(change, row: Int64(row)), on: database)
            try Self.insertAudit(WalletRows.audit(change), on: database)
            return .applied(change)
        }
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
