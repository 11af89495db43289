-- Rows as schema 5 (partial refunds, 1520435 on its branch, before migration 6 joined it) wrote them: Apple's
-- revocationType and the share revoked so far (milliunits) on the transaction, each prorated refund taking
-- floor(credit x share / 100000) less what earlier ones took, its outbox body with share, revocationType and
-- revocationPercentage; a full refund beside them.
-- schema: sqlite 5, postgres 5
--
-- expect balance v5-gus gold 24
-- expect state 5001 revoked
-- expect revoked 5001 80000
-- expect state 5002 revoked
-- expect revoked 5002 100000
-- expect audit 5001 credited revoked revoked
-- expect audit 5002 credited revoked
-- expect purchases v5-gus 5001 5002
-- expect history v5-gus credit:5001 revoke:5001 revoke:5001 credit:5002 revoke:5002
-- expect delivery evt_5001_credited https://game.example/purser delivered
-- expect event evt_5001_revoke_1 transaction.revoked v5-gus 2 gold=-60
-- expect event evt_5001_revoke_2 transaction.revoked v5-gus 3 gold=-36
-- expect event evt_5002_credited transaction.credited v5-gus 4 gold=60 client
-- expect event evt_5002_revoke_1 transaction.revoked v5-gus 5 gold=-60

INSERT INTO orders (id, user_id, product_id, quantity, state, transaction_id, created_at, updated_at) VALUES
    ('a5000000-0000-4000-8000-000000000001', 'v5-gus', 'com.example.purser.gold120', 1, 'delivered', '5001',
        1795455300000, 1795455305000),
    ('a5000000-0000-4000-8000-000000000002', 'v5-gus', 'com.example.purser.gold60', 1, 'delivered', '5002',
        1795455590000, 1795455600000);

INSERT INTO apple_transactions (transaction_id, original_transaction_id, bundle_id, product_id, type, quantity,
    purchase_date, app_account_token, environment, revocation_date, state, owner_id, order_id, rejection_code,
    rejection_message, recorded_at, updated_at, revocation_type, revocation_percentage) VALUES
    ('5001', '5001', 'com.example.purser', 'com.example.purser.gold120', 'Consumable', 1, 1795455304000,
        'a5000000-0000-4000-8000-000000000001', 'Sandbox', 1795455498000, 'revoked', 'v5-gus',
        'a5000000-0000-4000-8000-000000000001', NULL, NULL, 1795455305000, 1795455500000, 'REFUND_PRORATED', 80000),
    ('5002', '5002', 'com.example.purser', 'com.example.purser.gold60', 'Consumable', 1, 1795455599000,
        'a5000000-0000-4000-8000-000000000002', 'Sandbox', 1795455698000, 'revoked', 'v5-gus',
        'a5000000-0000-4000-8000-000000000002', NULL, NULL, 1795455600000, 1795455700000, 'REFUND_FULL', 100000);

INSERT INTO grants (transaction_id, user_id, currency, amount, kind, created_at) VALUES
    ('5001', 'v5-gus', 'gold', 120, 'credit', 1795455305000),
    ('5001', 'v5-gus', 'gold', -60, 'revoke', 1795455400000),
    ('5001', 'v5-gus', 'gold', -36, 'revoke', 1795455500000),
    ('5002', 'v5-gus', 'gold', 60, 'credit', 1795455600000),
    ('5002', 'v5-gus', 'gold', -60, 'revoke', 1795455700000);

INSERT INTO audit_log (at, subject, subject_id, event, cause, detail) VALUES
    (1795455305000, 'transaction', '5001', 'credited', 'submission by v5-gus',
        'to v5-gus gold+120 via order a5000000-0000-4000-8000-000000000001'),
    (1795455305000, 'order', 'a5000000-0000-4000-8000-000000000001', 'delivered', 'submission by v5-gus',
        'transaction 5001'),
    (1795455400000, 'transaction', '5001', 'revoked', 'notification b5000000-0000-4000-8000-000000000001',
        'from v5-gus gold-60 (REFUND_PRORATED: 0.000% → 50.000% of the purchase revoked)'),
    (1795455500000, 'transaction', '5001', 'revoked', 'notification b5000000-0000-4000-8000-000000000002',
        'from v5-gus gold-36 (REFUND_PRORATED: 50.000% → 80.000% of the purchase revoked)'),
    (1795455600000, 'transaction', '5002', 'credited', 'submission by v5-gus',
        'to v5-gus gold+60 via order a5000000-0000-4000-8000-000000000002'),
    (1795455600000, 'order', 'a5000000-0000-4000-8000-000000000002', 'delivered', 'submission by v5-gus',
        'transaction 5002'),
    (1795455700000, 'transaction', '5002', 'revoked', 'notification b5000000-0000-4000-8000-000000000003',
        'from v5-gus gold-60 (REFUND_FULL: 0.000% → 100.000% of the purchase revoked)');

INSERT INTO outbox (idempotency_key, webhook_id, topic, user_id, sequence, payload, created_at, dispatched_at) VALUES
    ('5001:credited', 'evt_5001_credited', 'transaction.credited', 'v5-gus', 1,
        '{"data":{"cause":"client","environment":"Sandbox","grants":{"gold":120},"occurredAt":"2026-11-23T17:35:05.000Z","orderId":"a5000000-0000-4000-8000-000000000001","originalTransactionId":"5001","productId":"com.example.purser.gold120","quantity":1,"sequence":1,"transactionId":"5001","userId":"v5-gus"},"timestamp":"2026-11-23T17:35:05.000Z","type":"transaction.credited"}',
        1795455305000, 1795455305100),
    ('5001:revoke:1', 'evt_5001_revoke_1', 'transaction.revoked', 'v5-gus', 2,
        '{"data":{"environment":"Sandbox","grants":{"gold":-60},"occurredAt":"2026-11-23T17:36:40.000Z","orderId":"a5000000-0000-4000-8000-000000000001","originalTransactionId":"5001","productId":"com.example.purser.gold120","quantity":1,"revocationPercentage":50000,"revocationType":"REFUND_PRORATED","sequence":2,"share":0.5,"transactionId":"5001","userId":"v5-gus"},"timestamp":"2026-11-23T17:36:40.000Z","type":"transaction.revoked"}',
        1795455400000, 1795455400100),
    ('5001:revoke:2', 'evt_5001_revoke_2', 'transaction.revoked', 'v5-gus', 3,
        '{"data":{"environment":"Sandbox","grants":{"gold":-36},"occurredAt":"2026-11-23T17:38:20.000Z","orderId":"a5000000-0000-4000-8000-000000000001","originalTransactionId":"5001","productId":"com.example.purser.gold120","quantity":1,"revocationPercentage":80000,"revocationType":"REFUND_PRORATED","sequence":3,"share":0.3,"transactionId":"5001","userId":"v5-gus"},"timestamp":"2026-11-23T17:38:20.000Z","type":"transaction.revoked"}',
        1795455500000, NULL),
    ('5002:credited', 'evt_5002_credited', 'transaction.credited', 'v5-gus', 4,
        '{"data":{"cause":"client","environment":"Sandbox","grants":{"gold":60},"occurredAt":"2026-11-23T17:40:00.000Z","orderId":"a5000000-0000-4000-8000-000000000002","originalTransactionId":"5002","productId":"com.example.purser.gold60","quantity":1,"sequence":4,"transactionId":"5002","userId":"v5-gus"},"timestamp":"2026-11-23T17:40:00.000Z","type":"transaction.credited"}',
        1795455600000, NULL),
    ('5002:revoke:1', 'evt_5002_revoke_1', 'transaction.revoked', 'v5-gus', 5,
        '{"data":{"environment":"Sandbox","grants":{"gold":-60},"occurredAt":"2026-11-23T17:41:40.000Z","orderId":"a5000000-0000-4000-8000-000000000002","originalTransactionId":"5002","productId":"com.example.purser.gold60","quantity":1,"revocationPercentage":100000,"revocationType":"REFUND_FULL","sequence":5,"share":1,"transactionId":"5002","userId":"v5-gus"},"timestamp":"2026-11-23T17:41:40.000Z","type":"transaction.revoked"}',
        1795455700000, NULL);

-- postgres only
INSERT INTO webhook_sequences (user_id, last) VALUES ('v5-gus', 5);

INSERT INTO webhook_deliveries (event_id, endpoint, status, attempts, next_attempt_at, claimed_by, claimed_until,
    last_attempt_at, last_result, delivered_at, created_at)
SELECT id, 'https://game.example/purser', 'delivered', 1, 1795455306000, NULL, NULL, 1795455306000, 'HTTP 204',
    1795455306000, 1795455305100 FROM outbox WHERE webhook_id = 'evt_5001_credited';

-- Fanned out, not attempted yet: a pending delivery the worker of an older replica had claimed when it stopped.
INSERT INTO webhook_deliveries (event_id, endpoint, status, attempts, next_attempt_at, claimed_by, claimed_until,
    last_attempt_at, last_result, delivered_at, created_at)
SELECT id, 'https://game.example/purser', 'pending', 0, 1795455400100, 'host-b:4242', 1795455430100, NULL, NULL,
    NULL, 1795455400100 FROM outbox WHERE webhook_id = 'evt_5001_revoke_1';

INSERT INTO notifications (notification_uuid, notification_type, subtype, transaction_id, environment, signed_date,
    received_at, processed_at, outcome) VALUES
    ('b5000000-0000-4000-8000-000000000001', 'REFUND', NULL, '5001', 'Sandbox', 1795455398000, 1795455399000,
        1795455400000, 'revoked gold-60 from v5-gus'),
    ('b5000000-0000-4000-8000-000000000002', 'REFUND', NULL, '5001', 'Sandbox', 1795455498000, 1795455499000,
        1795455500000, 'revoked gold-36 from v5-gus'),
    ('b5000000-0000-4000-8000-000000000003', 'REFUND', NULL, '5002', 'Sandbox', 1795455698000, 1795455699000,
        1795455700000, 'revoked gold-60 from v5-gus');
