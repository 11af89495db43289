import Foundation
import PostgresNIO
import PurserCore
import PurserWebhooks

extension PostgresLedgerStore {
    /// Writes `event` to the outbox inside the caller's transaction as the owner's next event. The owner's counter in
    /// `webhook_sequences` is taken with an upsert, which locks its row until commit: two replicas writing events for
    /// one user at once number them in the order they commit, without gaps or repeats.
    /// Returns the webhook id it drew.
    @discardableResult
    func writeOutboxEvent(_ event: OutboxEvent, on connection: PostgresConnection) async throws -> String {
        let user = event.owner.rawValue
        let counter = try await rows(
            connection,
            """
            INSERT INTO webhook_sequences (user_id, last) VALUES (\(user), 1)
            ON CONFLICT (user_id) DO UPDATE SET last = webhook_sequences.last + 1
            RETURNING last
            """)
        guard let sequence = try counter.first?.makeRandomAccess().int64("last") else {
            throw StorageError(.corrupt, "the webhook sequence of \(user) did not come back")
        }
        let body = try event.body(sequence: sequence, bundleID: outbox.bundleID)
        let webhookID = outbox.nextWebhookID(at: event.at)
        try await execute(
            connection,
            """
            INSERT INTO outbox (idempotency_key, webhook_id, topic, user_id, sequence, payload, created_at)
            VALUES (\(event.idempotencyKey), \(webhookID), \(event.type.rawValue), \(user), \(sequence),
                \(body), \(event.at.millis))
            """)
        return webhookID
    }
}
