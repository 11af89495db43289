import Foundation
import PurserCore

extension SQLiteLedgerStore {
    public func ownedProductIDs(of user: UserID) async throws -> Set<String> {
        let rows = try await read(
            "SELECT DISTINCT product_id FROM apple_transactions WHERE owner_id = ? AND state = 'credited'",
            [.text(user.rawValue)])
        return Set(try rows.map { try $0.text("product_id") })
    }

    public func purchases(of user: UserID, limit: Int) async throws -> UserPurchases {
        let id = SQLiteData.text(user.rawValue)
        let orders = try await read(
            """
            SELECT id, user_id, product_id, quantity, state, transaction_id, created_at, updated_at FROM orders
            WHERE user_id = ? ORDER BY created_at DESC, id DESC LIMIT ?
            """, [id, .integer(limit)])
        // The second half reads `apple_transactions_unsettled_token`, a partial index the credited majority stays out of.
        let transactions = try await read(
            """
            SELECT transaction_id, recorded_at FROM apple_transactions WHERE owner_id = ?
            UNION
            SELECT transaction_id, recorded_at FROM apple_transactions
            WHERE state <> 'credited'
              AND app_account_token IN (SELECT o.id FROM orders o WHERE o.user_id = ? UNION SELECT ?)
            ORDER BY recorded_at DESC, transaction_id DESC LIMIT ?
            """, [id, id, .text(OrderID.accountToken(for: user).description), .integer(limit)])
        return UserPurchases(
            orders: try orders.map(Self.order(from:)),
            transactionIDs: try transactions.map { try $0.text("transaction_id") })
    }
}
