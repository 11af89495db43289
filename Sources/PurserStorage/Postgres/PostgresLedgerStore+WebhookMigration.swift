extension PostgresLedgerStore {
    /// Migration 4, as `SQLiteLedgerStore.webhookOutbox` in PostgreSQL's dialect, plus `webhook_sequences`: each
    /// user's last event number, the row that serialises one user's events across replicas.
    static let webhookOutbox: [String] = [
        """
        ALTER TABLE outbox ADD COLUMN webhook_id TEXT, ADD COLUMN user_id TEXT, ADD COLUMN sequence BIGINT,
            ADD COLUMN dispatched_at BIGINT
        """,
        """
        UPDATE outbox SET webhook_id = 'evt_' || replace(idempotency_key, ':', '_'),
            user_id = payload::jsonb ->> 'userId'
        """,
        """
        UPDATE outbox SET sequence = numbered.n
        FROM (SELECT id, ROW_NUMBER() OVER (PARTITION BY user_id ORDER BY id) AS n FROM outbox) AS numbered
        WHERE outbox.id = numbered.id
        """,
        """
        UPDATE outbox SET payload = jsonb_build_object(
            'data', jsonb_build_object(
                'cause', CASE WHEN outbox.topic = 'transaction.credited' THEN (
                    SELECT CASE WHEN a.cause LIKE 'submission by %' THEN 'client'
                                WHEN a.cause LIKE 'notification %' THEN 'notification'
                                WHEN a.cause = 'reconciliation' THEN 'reconciliation'
                                WHEN a.cause LIKE 'support by %' THEN 'support' END
                    FROM audit_log a WHERE a.subject_id = t.transaction_id AND a.event = 'credited'
                    ORDER BY a.id LIMIT 1) END,
                'environment', t.environment,
                'grants', outbox.payload::jsonb -> 'grants',
                'occurredAt', to_char(to_timestamp(outbox.created_at / 1000.0) AT TIME ZONE 'UTC',
                    'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
                'orderId', outbox.payload::jsonb -> 'orderId',
                'originalTransactionId', t.original_transaction_id,
                'productId', t.product_id,
                'quantity', t.quantity,
                'sequence', outbox.sequence,
                'share', CASE WHEN outbox.topic = 'transaction.revoked' THEN 1 END,
                'transactionId', t.transaction_id,
                'userId', outbox.user_id),
            'timestamp', to_char(to_timestamp(outbox.created_at / 1000.0) AT TIME ZONE 'UTC',
                'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
            'type', outbox.topic)::text
        FROM apple_transactions AS t WHERE t.transaction_id = outbox.payload::jsonb ->> 'transactionId'
        """,
        "CREATE UNIQUE INDEX outbox_webhook_id ON outbox (webhook_id)",
        "CREATE UNIQUE INDEX outbox_user_sequence ON outbox (user_id, sequence)",
        "CREATE INDEX outbox_undispatched ON outbox (id) WHERE dispatched_at IS NULL",
        "CREATE TABLE webhook_sequences (user_id TEXT PRIMARY KEY, last BIGINT NOT NULL)",
        """
        INSERT INTO webhook_sequences (user_id, last)
        SELECT user_id, MAX(sequence) FROM outbox WHERE user_id IS NOT NULL GROUP BY user_id
        """,
        """
        CREATE TABLE webhook_deliveries (
            id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            event_id BIGINT NOT NULL REFERENCES outbox (id),
            endpoint TEXT NOT NULL,
            status TEXT NOT NULL,
            attempts BIGINT NOT NULL,
            next_attempt_at BIGINT NOT NULL,
            claimed_by TEXT,
            claimed_until BIGINT,
            last_attempt_at BIGINT,
            last_result TEXT,
            delivered_at BIGINT,
            created_at BIGINT NOT NULL,
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
