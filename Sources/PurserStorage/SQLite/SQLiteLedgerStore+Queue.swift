import Foundation
import PurserCore

extension SQLiteLedgerStore {
    public func transactionIDs(ownedBy user: UserID, limit: Int) async throws -> [String] {
        try await read(
            """
            SELECT transaction_id FROM apple_transactions WHERE owner_id = ?
            ORDER BY recorded_at DESC, transaction_id DESC LIMIT ?
            """, [.text(user.rawValue), .integer(limit)]
        ).map { try $0.text("transaction_id") }
    }

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

extension SQLiteLedgerStore {
    public func activity(since: Date) async throws -> LedgerActivity {
        let events = try await read(
            "SELECT event, COUNT(*) AS n FROM audit_log WHERE at >= ? GROUP BY event", [.integer(Int(since.millis))])
        var counts: [String: Int] = [:]
        for row in events { counts[try row.text("event")] = try row.int("n") }
        let last = try await read(
            "SELECT received_at, signed_date FROM notifications ORDER BY received_at DESC LIMIT 1", []
        ).first
        return LedgerActivity(
            eventsByKind: counts,
            lastNotificationReceivedAt: last?.column("received_at")?.integer.map { Date(millis: $0) },
            lastNotificationSignedAt: last?.column("signed_date")?.integer.map { Date(millis: $0) })
    }
}
