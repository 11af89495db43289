import Foundation
import PurserCore
import SQLiteNIO

extension SQLiteLedgerStore {
    public func unboundTransactionIDs(limit: Int) async throws -> [String] {
        try await read(
            """
            SELECT transaction_id FROM apple_transactions WHERE state = 'unbound'
            ORDER BY recorded_at, transaction_id LIMIT ?
            """, [.integer(limit)]
        ).map { try $0.text("transaction_id") }
    }

    public func waitingOrderIDs(productID: String, createdFrom from: Date, to: Date, limit: Int) async throws
        -> [OrderID]
    {
        try await read(
            """
            SELECT id FROM orders WHERE state = 'created' AND product_id = ? AND created_at BETWEEN ? AND ?
            ORDER BY created_at, id LIMIT ?
            """,
            [.text(productID), .integer(Int(from.millis)), .integer(Int(to.millis)), .integer(limit)]
        ).compactMap { OrderID(try $0.text("id")) }
    }
}
