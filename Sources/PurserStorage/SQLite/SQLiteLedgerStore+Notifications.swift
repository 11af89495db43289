import Foundation
import PurserCore

extension SQLiteLedgerStore {
    public func recordNotification(_ record: NotificationRecord) async throws -> NotificationRecord? {
        try await write { database in
            let inserted = try database.query(
                """
                INSERT INTO notifications (notification_uuid, notification_type, subtype, transaction_id, environment,
                    signed_date, received_at)
                VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (notification_uuid) DO NOTHING RETURNING notification_uuid
                """,
                [
                    .text(record.uuid), .text(record.type), .optionalText(record.subtype),
                    .optionalText(record.transactionID),
                    .optionalText(record.environment), record.signedDate.map { .integer(Int($0.millis)) } ?? .null,
                    .integer(Int(record.receivedAt.millis)),
                ])
            guard inserted.isEmpty else { return nil }
            let rows = try database.query(
                "SELECT * FROM notifications WHERE notification_uuid = ?", [.text(record.uuid)])
            guard let row = rows.first else { throw StorageError(.corrupt, "notification \(record.uuid) vanished") }
            return NotificationRecord(
                uuid: record.uuid, type: try row.text("notification_type"), subtype: row.optionalText("subtype"),
                transactionID: row.optionalText("transaction_id"), environment: row.optionalText("environment"),
                signedDate: row.column("signed_date")?.integer.map { Date(millis: $0) },
                receivedAt: Date(millis: try row.int("received_at")),
                processedAt: row.column("processed_at")?.integer.map { Date(millis: $0) },
                outcome: row.optionalText("outcome"))
        }
    }

    public func markNotificationProcessed(uuid: String, outcome: String, at: Date) async throws {
        try await write { database in
            try database.query(
                "UPDATE notifications SET processed_at = ?, outcome = ? WHERE notification_uuid = ?",
                [.integer(Int(at.millis)), .text(outcome), .text(uuid)])
        }
    }

    public func processedNotifications(among uuids: [String]) async throws -> Set<String> {
        var processed: Set<String> = []
        var start = uuids.startIndex
        while start < uuids.endIndex {
            let chunk = uuids[start..<min(start + 500, uuids.endIndex)]
            start = chunk.endIndex
            let marks = Array(repeating: "?", count: chunk.count).joined(separator: ", ")
            let rows = try await read(
                "SELECT notification_uuid FROM notifications WHERE processed_at IS NOT NULL AND notification_uuid IN (\(marks))",
                chunk.map { .text($0) })
            for row in rows { processed.insert(try row.text("notification_uuid")) }
        }
        return processed
    }
}
