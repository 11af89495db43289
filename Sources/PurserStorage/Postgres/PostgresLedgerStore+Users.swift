import Foundation
import PostgresNIO
import PurserCore

extension PostgresLedgerStore {
    public func ownedProductIDs(of user: UserID) async throws -> Set<String> {
        let rows = try await withConnection { connection in
            try await self.rows(
                connection,
                """
                SELECT DISTINCT product_id FROM apple_transactions
                WHERE owner_id = \(user.rawValue) AND state = 'credited'
                """)
        }
        return Set(try rows.map { try $0.makeRandomAccess().text("product_id") })
    }

    public func purchases(of user: UserID, limit: Int) async throws -> UserPurchases {
        let accountToken = OrderID.accountToken(for: user).description
        let (orders, transactions) = try await withConnection { connection in
            (
                try await self.rows(
                    connection,
                    """
                    SELECT id, user_id, product_id, quantity, state, transaction_id, created_at, updated_at FROM orders
                    WHERE user_id = \(user.rawValue) ORDER BY created_at DESC, id DESC LIMIT \(limit)
                    """),
                // The second half reads `apple_transactions_unsettled_token`, a partial index the credited majority
                // stays out of.
                try await self.rows(
                    connection,
                    """
                    SELECT transaction_id, recorded_at FROM apple_transactions WHERE owner_id = \(user.rawValue)
                    UNION
                    SELECT transaction_id, recorded_at FROM apple_transactions
                    WHERE state <> 'credited' AND app_account_token IN (
                        SELECT o.id FROM orders o WHERE o.user_id = \(user.rawValue) UNION SELECT \(accountToken))
                    ORDER BY recorded_at DESC, transaction_id DESC LIMIT \(limit)
                    """)
            )
        }
        return UserPurchases(
            orders: try orders.map { try Self.order(from: $0.makeRandomAccess()) },
            transactionIDs: try transactions.map { try $0.makeRandomAccess().text("transaction_id") })
    }
}
