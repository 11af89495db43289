import Foundation
import PostgresNIO
import PurserCore

extension PostgresLedgerStore {
    /// The order's row is locked first, so a settlement delivering it at the same moment either comes before (the
    /// order is `delivered`) or after (it finds the order `cancelled`).
    public func cancelOrder(_ id: OrderID, by user: UserID, reason: String, now: Date) async throws
        -> OrderCancellation
    {
        try await inTransaction { connection in
            guard var order = try await self.order(id, on: connection, lock: true),
                order.userID == user
            else {
                return .notFound
            }
            switch order.state {
            case .created: break
            case .cancelled: return .alreadyCancelled(order)
            case .delivered: return .delivered(order)
            }
            try await self.execute(
                connection,
                """
                UPDATE orders SET state = 'cancelled', updated_at = \(now.millis)
                WHERE id = \(id.description) AND state = 'created'
                """)
            try await self.insertAudit(
                AuditEvent(
                    at: now, subject: .order, subjectID: id.description, event: "cancelled", cause: "client",
                    detail: reason),
                on: connection)
            order.state = .cancelled
            order.updatedAt = Date(millis: now.millis)
            return .cancelled(order)
        }
    }
}
