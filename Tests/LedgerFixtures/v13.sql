-- Rows as schema 13's releases (2f4dcd5 .. 2453ce5) wrote them: a credit, and the dashboard sampler's queue
-- samples (migration 13's table), one of them older than the 49 hours the sampler keeps.
-- schema: sqlite 13, postgres 13
--
-- expect balance v13-jun gold 60
-- expect audit 13001 credited
-- expect history v13-jun credit:13001

INSERT INTO orders (id, user_id, product_id, quantity, state, transaction_id, created_at, updated_at) VALUES
    ('a1300000-0000-4000-8000-000000013001', 'v13-jun', 'com.example.purser.gold60', 1, 'delivered', '13001',
        1795750000000, 1795750005000);

INSERT INTO apple_transactions (transaction_id, original_transaction_id, bundle_id, product_id, type, quantity,
    purchase_date, app_account_token, environment, revocation_date, state, owner_id, order_id, rejection_code,
    rejection_message, recorded_at, updated_at, revocation_type, revocation_percentage, app_transaction_id,
    credited_by, finished_at_apple, app_account_token_for_apple) VALUES
    ('13001', '13001', 'com.example.purser', 'com.example.purser.gold60', 'Consumable', 1, 1795750004000,
        'a1300000-0000-4000-8000-000000013001', 'Sandbox', NULL, 'credited', 'v13-jun',
        'a1300000-0000-4000-8000-000000013001', NULL, NULL, 1795750005000, 1795750005000, NULL, NULL, 'app-tx-13',
        'client', 1795750060000, NULL);

INSERT INTO grants (transaction_id, user_id, currency, amount, kind, created_at) VALUES
    ('13001', 'v13-jun', 'gold', 60, 'credit', 1795750005000);

INSERT INTO audit_log (at, subject, subject_id, event, cause, detail) VALUES
    (1795750005000, 'transaction', '13001', 'credited', 'submission by v13-jun',
        'to v13-jun gold+60 via order a1300000-0000-4000-8000-000000013001'),
    (1795750005000, 'order', 'a1300000-0000-4000-8000-000000013001', 'delivered', 'submission by v13-jun',
        'transaction 13001');

INSERT INTO outbox (idempotency_key, webhook_id, topic, user_id, sequence, payload, created_at, dispatched_at,
    pruned_at) VALUES
    ('13001:credited', 'evt_13001_credited', 'transaction.credited', 'v13-jun', 1,
        '{"data":{"cause":"client","environment":"Sandbox","grants":{"gold":60},"occurredAt":"2026-11-27T03:26:45.000Z","orderId":"a1300000-0000-4000-8000-000000013001","originalTransactionId":"13001","productId":"com.example.purser.gold60","quantity":1,"sequence":1,"transactionId":"13001","userId":"v13-jun"},"timestamp":"2026-11-27T03:26:45.000Z","type":"transaction.credited"}',
        1795750005000, NULL, NULL);

INSERT INTO queue_samples (at, webhook_backlog, unbound) VALUES
    (1795500000000, 3, 1),
    (1795749900000, 0, 0),
    (1795750200000, 1, 0);

-- postgres only
INSERT INTO webhook_sequences (user_id, last) VALUES ('v13-jun', 1);
