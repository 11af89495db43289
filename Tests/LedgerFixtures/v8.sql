-- Rows as schema 8's releases (7f310ff ..) wrote them: the same shapes as schema 6, among them a non-consumable
-- (an entitlement the user owns) and an Xcode test transaction, for which nothing is owed to Apple (credited_by
-- left empty).
-- schema: sqlite 8, postgres 8
--
-- expect balance v8-ivo noads 1
-- expect balance v8-ivo gold 60
-- expect state 8001 credited
-- expect state 8002 credited
-- expect owned v8-ivo com.example.purser.noads com.example.purser.gold60
-- expect apptx app-tx-8 8001
-- expect purchases v8-ivo 8001 8002
-- expect history v8-ivo credit:8001 credit:8002
-- expect delivery evt_8001_credited https://game.example/purser delivered
-- expect event evt_8002_credited transaction.credited v8-ivo 2 gold=60 client

INSERT INTO orders (id, user_id, product_id, quantity, state, transaction_id, created_at, updated_at) VALUES
    ('a8000000-0000-4000-8000-000000000001', 'v8-ivo', 'com.example.purser.noads', 1, 'delivered', '8001',
        1795658700000, 1795658705000),
    ('a8000000-0000-4000-8000-000000000002', 'v8-ivo', 'com.example.purser.gold60', 1, 'delivered', '8002',
        1795658790000, 1795658800000);

INSERT INTO apple_transactions (transaction_id, original_transaction_id, bundle_id, product_id, type, quantity,
    purchase_date, app_account_token, environment, revocation_date, state, owner_id, order_id, rejection_code,
    rejection_message, recorded_at, updated_at, revocation_type, revocation_percentage, app_transaction_id,
    credited_by, finished_at_apple, app_account_token_for_apple) VALUES
    ('8001', '8001', 'com.example.purser', 'com.example.purser.noads', 'Non-Consumable', 1, 1795658704000,
        'a8000000-0000-4000-8000-000000000001', 'Sandbox', NULL, 'credited', 'v8-ivo',
        'a8000000-0000-4000-8000-000000000001', NULL, NULL, 1795658705000, 1795658705000, NULL, NULL, 'app-tx-8',
        'client', 1795658760000, NULL),
    ('8002', '8002', 'com.example.purser', 'com.example.purser.gold60', 'Consumable', 1, 1795658799000,
        'a8000000-0000-4000-8000-000000000002', 'Xcode', NULL, 'credited', 'v8-ivo',
        'a8000000-0000-4000-8000-000000000002', NULL, NULL, 1795658800000, 1795658800000, NULL, NULL, NULL, NULL,
        NULL, NULL);

INSERT INTO grants (transaction_id, user_id, currency, amount, kind, created_at) VALUES
    ('8001', 'v8-ivo', 'noads', 1, 'credit', 1795658705000),
    ('8002', 'v8-ivo', 'gold', 60, 'credit', 1795658800000);

INSERT INTO audit_log (at, subject, subject_id, event, cause, detail) VALUES
    (1795658705000, 'transaction', '8001', 'credited', 'submission by v8-ivo',
        'to v8-ivo noads+1 via order a8000000-0000-4000-8000-000000000001'),
    (1795658705000, 'order', 'a8000000-0000-4000-8000-000000000001', 'delivered', 'submission by v8-ivo',
        'transaction 8001'),
    (1795658800000, 'transaction', '8002', 'credited', 'submission by v8-ivo',
        'to v8-ivo gold+60 via order a8000000-0000-4000-8000-000000000002'),
    (1795658800000, 'order', 'a8000000-0000-4000-8000-000000000002', 'delivered', 'submission by v8-ivo',
        'transaction 8002');

INSERT INTO outbox (idempotency_key, webhook_id, topic, user_id, sequence, payload, created_at, dispatched_at) VALUES
    ('8001:credited', 'evt_8001_credited', 'transaction.credited', 'v8-ivo', 1,
        '{"data":{"cause":"client","environment":"Sandbox","grants":{"noads":1},"occurredAt":"2026-11-26T02:05:05.000Z","orderId":"a8000000-0000-4000-8000-000000000001","originalTransactionId":"8001","productId":"com.example.purser.noads","quantity":1,"sequence":1,"transactionId":"8001","userId":"v8-ivo"},"timestamp":"2026-11-26T02:05:05.000Z","type":"transaction.credited"}',
        1795658705000, 1795658705100),
    ('8002:credited', 'evt_8002_credited', 'transaction.credited', 'v8-ivo', 2,
        '{"data":{"cause":"client","environment":"Xcode","grants":{"gold":60},"occurredAt":"2026-11-26T02:06:40.000Z","orderId":"a8000000-0000-4000-8000-000000000002","originalTransactionId":"8002","productId":"com.example.purser.gold60","quantity":1,"sequence":2,"transactionId":"8002","userId":"v8-ivo"},"timestamp":"2026-11-26T02:06:40.000Z","type":"transaction.credited"}',
        1795658800000, NULL);

-- postgres only
INSERT INTO webhook_sequences (user_id, last) VALUES ('v8-ivo', 2);

INSERT INTO webhook_deliveries (event_id, endpoint, status, attempts, next_attempt_at, claimed_by, claimed_until,
    last_attempt_at, last_result, delivered_at, created_at)
SELECT id, 'https://game.example/purser', 'delivered', 1, 1795658706000, NULL, NULL, 1795658706000, 'HTTP 204',
    1795658706000, 1795658705100 FROM outbox WHERE webhook_id = 'evt_8001_credited';
