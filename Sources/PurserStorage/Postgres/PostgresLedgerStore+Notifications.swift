import Foundation
import PostgresNIO
import PurserCore

extension PostgresLedgerStore {
    public func recordNotification(_ record: NotificationRecord) async throws -> NotificationRecord? {
        try await withConnection { connection in
            let inserted = try await self.rows(
                connection,
                """
                INSERT INTO notifications (notification_uuid, notification_type, subtype, transaction_id, environment,
                    signed_date, received_at)
                VALUES (\(record.uuid), \(record.type), \(record.subtype), \(record.transactionID),
                    \(record.environment), \(record.signedDate?.millis), \(record.receivedAt.millis))
                ON CONFLICT (notification_uuid) DO NOTHING RETURNING notification_uuid
                """)
            guard inserted.isEmpty else { return nil }
            let rows = try await self.rows(
                connection, "SELECT * FROM notifications WHERE notification_uuid = \(record.uuid)")
            guard let row = rows.first?.makeRandomAccess() else {
                throw StorageError(.corrupt, "notification \(record.uuid) vanished")
            }
            return NotificationRecord(
                uuid: record.uuid, type: try row.text("notification_type"), subtype: try row.optionalText("subtype"),
                transactionID: try row.optionalText("transaction_id"),
                environment: try row.optionalText("environment"),
                signedDate: try row["signed_date"].decode(Int64?.self).map { Date(millis: $0) },
                receivedAt: Date(millis: try row.int64("received_at")),
                processedAt: try row["processed_at"].decode(Int64?.self).map { Date(millis: $0) },
                outcome: try row.optionalText("outcome"))
        }
    }

    public func markNotificationProcessed(uuid: String, outcome: String, at: Date) async throws {
        try await withConnection { connection in
            try await self.execute(
                connection,
                """
                UPDATE notifications SET processed_at = \(at.millis), outcome = \(outcome)
                WHERE notification_uuid = \(uuid)
                """)
        }
    }

    /// One statement whatever the count: the UUIDs travel as one array parameter.
    public func processedNotifications(among uuids: [String]) async throws -> Set<String> {
        guard !uuids.isEmpty else { return [] }
        let rows = try await withConnection { connection in
            try await self.rows(
                connection,
                """
                SELECT notification_uuid FROM notifications
                WHERE processed_at IS NOT NULL AND notification_uuid = ANY(\(uuids))
                """)
        }
        return Set(try rows.map { try $0.makeRandomAccess().text("notification_uuid") })
    }
}
