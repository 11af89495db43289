import Foundation
import PurserCore

extension SQLiteLedgerStore {
    public func cancelOrder(_ id: OrderID, by user: UserID, reason: String, now: Date) async throws
        -> OrderCancellation
    {
        try await write { database in
            guard var order = try Self.order(id, on: database), order.userID == user else {
                return .notFound
            }
            switch order.state {
            case .created: break
            case .cancelled: return .alreadyCancelled(order)
            case .delivered: return .delivered(order)
            }
            // `state` is TEXT holding `Order.State.rawValue`: the new state needs no migration.
            let at = SQLiteData.integer(Int(now.millis))
            try database.query(
                "UPDATE orders SET state = 'cancelled', updated_at = ? WHERE id = ? AND state = 'created'",
                [at, .text(id.description)])
            try database.query(
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
