import Foundation
import PurserCore
import SQLiteNIO

extension SQLiteLedgerStore {
    public func cancelOrder(_ id: OrderID, by user: UserID, reason: String, now: Date) async throws
        -> OrderCancellation
    {
        try await writeLock.withLock {
            try await self.inTransaction {
                guard var order = try await Self.order(id, on: self.writer), order.userID == user else {
                    return .notFound
                }
                switch order.state {
                case .created: break
                case .cancelled: return .alreadyCancelled(order)
                case .delivered: return .delivered(order)
                }
                // `state` is TEXT holding `Order.State.rawValue`: the new state needs no migration.
                let at = SQLiteData.integer(Int(now.millis))
                _ = try await self.query(
                    self.writer,
                    "UPDATE orders SET state = 'cancelled', updated_at = ? WHERE id = ? AND state = 'created'",
                    [at, .text(id.description)])
                _ = try await self.query(
                    self.writer,
                    """
                    INSERT INTO audit_log (at, subject, subject_id, event, cause, detail)
                    VALUES (?, 'order', ?, 'cancelled', 'client', ?)
                    """, [at, .text(id.description), .text(reason)])
                order.state = .cancelled
                order.updatedAt = Date(millis: now.millis)
                return .cancelled(order)
            }
        }
    }
}
