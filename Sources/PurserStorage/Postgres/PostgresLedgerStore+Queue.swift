import Foundation
import PostgresNIO
import PurserCore

extension PostgresLedgerStore {
    public func unboundTransactionIDs(limit: Int) async throws -> [String] {
        let rows = try await withConnection { connection in
            try await self.rows(
                connection,
                """
                SELECT transaction_id FROM apple_transactions WHERE state = 'unbound'
                ORDER BY recorded_at, transaction_id LIMIT \(limit)
                """)
        }
        return try rows.map { try $0.makeRandomAccess().text("transaction_id") }
    }

    public func waitingOrderIDs(productID: String, createdFrom from: Date, to: Date, limit: Int) async throws
        -> [OrderID]
    {
        let rows = try await withConnection { connection in
            try await self.rows(
                connection,
                """
                SELECT id FROM orders WHERE state = 'created' AND product_id = \(productID)
                  AND created_at BETWEEN \(from.millis) AND \(to.millis)
                ORDER BY created_at, id LIMIT \(limit)
                """)
        }
        return try rows.compactMap { OrderID(try $0.makeRandomAccess().text("id")) }
    }
}
