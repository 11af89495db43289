import Foundation
import PurserCore
import PurserWebhooks

extension SQLiteLedgerStore {
    /// Writes `event` to the outbox on the writer, inside the caller's transaction, as the owner's next event: its
    /// `sequence` is one more than the owner's last (one writer at a time, so no other transaction can take it).
    /// Its webhook id and the app its body names come from `outbox`; returns the id it drew.
    @discardableResult
    static func writeOutboxEvent(_ event: OutboxEvent, outbox: OutboxIdentity, on database: SQLiteDatabase) throws
        -> String
    {
        let user = SQLiteData.text(event.owner.rawValue)
        let last = try database.query(
            "SELECT COALESCE(MAX(sequence), 0) AS last FROM outbox WHERE user_id = ?", [user])
        let sequence = Int64(last.first?.column("last")?.integer ?? 0) + 1
        let webhookID = outbox.nextWebhookID(at: event.at)
        try database.query(
            """
            INSERT INTO outbox (idempotency_key, webhook_id, topic, user_id, sequence, payload, created_at)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """,
            [
                .text(event.idempotencyKey), .text(webhookID), .text(event.type.rawValue), user,
                .integer(Int(sequence)), .text(try event.body(sequence: sequence, bundleID: outbox.bundleID)),
                .integer(Int(event.at.millis)),
            ])
        return webhookID
    }
}
