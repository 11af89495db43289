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

extension PostgresLedgerStore {
    public func activity(since: Date) async throws -> LedgerActivity {
        let (events, last) = try await withConnection { connection in
            (
                try await self.rows(
                    connection, "SELECT event, COUNT(*) AS n FROM audit_log WHERE at >= \(since.millis) GROUP BY event"),
                try await self.rows(
                    connection,
                    "SELECT received_at, signed_date FROM notifications ORDER BY received_at DESC LIMIT 1")
            )
        }
        var counts: [String: Int] = [:]
        for row in events {
            let columns = row.makeRandomAccess()
            counts[try columns.text("event")] = Int(try columns.int64("n"))
        }
        let row = last.first?.makeRandomAccess()
        return LedgerActivity(
            eventsByKind: counts,
            lastNotificationReceivedAt: try row.map { Date(millis: try $0.int64("received_at")) },
            lastNotificationSignedAt: try row?["signed_date"].decode(Int64?.self).map { Date(millis: $0) })
    }
}
