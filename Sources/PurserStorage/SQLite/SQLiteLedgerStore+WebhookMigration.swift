extension SQLiteLedgerStore {
    /// Migration 4: webhook delivery. Outbox rows get their `webhook-id`, owner, per-user `sequence` and the moment
    /// they were fanned out to the endpoints; `webhook_deliveries` holds one row per event and endpoint (status,
    /// attempts, the claim). Rows written before it are brought to the new form: their body is rebuilt from the old
    /// payload and the transaction (a credit's cause from its audit record), their sequence numbered by row order.
    static let webhookOutbox: [String] = [
        "ALTER TABLE outbox ADD COLUMN webhook_id TEXT",
        "ALTER TABLE outbox ADD COLUMN user_id TEXT",
        "ALTER TABLE outbox ADD COLUMN sequence INTEGER",
        "ALTER TABLE outbox ADD COLUMN dispatched_at INTEGER",
        """
        UPDATE outbox SET webhook_id = 'evt_' || replace(idempotency_key, ':', '_'),
            user_id = json_extract(payload, '$.userId')
        """,
        """
        UPDATE outbox SET sequence = numbered.n
        FROM (SELECT id, ROW_NUMBER() OVER (PARTITION BY user_id ORDER BY id) AS n FROM outbox) AS numbered
        WHERE outbox.id = numbered.id
        """,
        """
        UPDATE outbox SET payload = json_object(
            'data', json_object(
                'cause', CASE WHEN outbox.topic = 'transaction.credited' THEN (
                    SELECT CASE WHEN a.cause LIKE 'submission by %' THEN 'client'
                                WHEN a.cause LIKE 'notification %' THEN 'notification'
                                WHEN a.cause = 'reconciliation' THEN 'reconciliation'
                                WHEN a.cause LIKE 'support by %' THEN 'support' END
                    FROM audit_log a WHERE a.subject_id = t.transaction_id AND a.event = 'credited'
                    ORDER BY a.id LIMIT 1) END,
                'environment', t.environment,
                'grants', json(json_extract(outbox.payload, '$.grants')),
                'occurredAt', strftime('%Y-%m-%dT%H:%M:%fZ', outbox.created_at / 1000.0, 'unixepoch'),
                'orderId', json_extract(outbox.payload, '$.orderId'),
                'originalTransactionId', t.original_transaction_id,
                'productId', t.product_id,
                'quantity', t.quantity,
                'sequence', outbox.sequence,
                'share', CASE WHEN outbox.topic = 'transaction.revoked' THEN 1 END,
                'transactionId', t.transaction_id,
                'userId', outbox.user_id),
            'timestamp', strftime('%Y-%m-%dT%H:%M:%fZ', outbox.created_at / 1000.0, 'unixepoch'),
            'type', outbox.topic)
        FROM apple_transactions AS t WHERE t.transaction_id = json_extract(outbox.payload, '$.transactionId')
        """,
        "CREATE UNIQUE INDEX outbox_webhook_id ON outbox (webhook_id)",
        "CREATE UNIQUE INDEX outbox_user_sequence ON outbox (user_id, sequence)",
        "CREATE INDEX outbox_undispatched ON outbox (id) WHERE dispatched_at IS NULL",
        """
        CREATE TABLE webhook_deliveries (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            event_id INTEGER NOT NULL REFERENCES outbox (id),
            endpoint TEXT NOT NULL,
            status TEXT NOT NULL,
            attempts INTEGER NOT NULL,
            next_attempt_at INTEGER NOT NULL,
            claimed_by TEXT,
            claimed_until INTEGER,
            last_attempt_at INTEGER,
            last_result TEXT,
            delivered_at INTEGER,
            created_at INTEGER NOT NULL,
            UNIQUE (event_id, endpoint)
        )
        """,
        """
        CREATE INDEX webhook_deliveries_due ON webhook_deliveries (endpoint, next_attempt_at)
        WHERE status IN ('pending', 'failed')
        """,
        "CREATE INDEX webhook_deliveries_status ON webhook_deliveries (status, id)",
    ]
}
