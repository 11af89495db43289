-- Rows as schema 4's releases (1cb1d24 .. 31d283a) wrote them: outbox rows in their webhook form (webhook-id, user,
-- per-user sequence, the Standard Webhooks body with sorted keys), fanned out to two endpoints: deliveries
-- delivered, failed and due again, dead; one event not fanned out yet. PostgreSQL also keeps each user's last
-- sequence in webhook_sequences.
-- schema: sqlite 4, postgres 4
--
-- expect balance v4-fay gold 120
-- expect state 4001 credited
-- expect state 4002 revoked
-- expect revoked 4002 100000
-- expect state 4003 credited
-- expect audit 4002 credited revoked
-- expect order a4000000-0000-4000-8000-000000000003 delivered
-- expect purchases v4-fay 4001 4002 4003
-- expect history v4-fay credit:4001 credit:4002 revoke:4002 credit:4003
-- expect notification b4000000-0000-4000-8000-000000000001
-- expect delivery evt_4001_credited https://game.example/purser delivered
-- expect delivery evt_4001_credited https://audit.example/purser dead
-- expect delivery evt_4002_credited https://game.example/purser delivered
-- expect delivery evt_4002_revoke_1 https://game.example/purser failed
-- expect event evt_4002_revoke_1 transaction.revoked v4-fay 3 gold=-120
-- expect event evt_4003_credited transaction.credited v4-fay 4 gold=60 client

INSERT INTO orders (id, user_id, product_id, quantity, state, transaction_id, created_at, updated_at) VALUES
    ('a4000000-0000-4000-8000-000000000001', 'v4-fay', 'com.example.purser.gold60', 1, 'delivered', '4001',
        1795450200000, 1795450205000),
    ('a4000000-0000-4000-8000-000000000002', 'v4-fay', 'com.example.purser.gold120', 1, 'delivered', '4002',
        1795450290000, 1795450300000),
    ('a4000000-0000-4000-8000-000000000003', 'v4-fay', 'com.example.purser.gold60', 1, 'delivered', '4003',
        1795450401000, 1795450405000);

INSERT INTO apple_transactions (transaction_id, original_transaction_id, bundle_id, product_id, type, quantity,
    purchase_date, app_account_token, environment, revocation_date, state, owner_id, order_id, rejection_code,
    rejection_message, recorded_at, updated_at) VALUES
    ('4001', '4001', 'com.example.purser', 'com.example.purser.gold60', 'Consumable', 1, 1795450204000,
        'a4000000-0000-4000-8000-000000000001', 'Sandbox', NULL, 'credited', 'v4-fay',
        'a4000000-0000-4000-8000-000000000001', NULL, NULL, 1795450205000, 1795450205000),
    ('4002', '4002', 'com.example.purser', 'com.example.purser.gold120', 'Consumable', 1, 1795450295000,
        'a4000000-0000-4000-8000-000000000002', 'Sandbox', 1795450398000, 'revoked', 'v4-fay',
        'a4000000-0000-4000-8000-000000000002', NULL, NULL, 1795450300000, 1795450400000),
    ('4003', '4003', 'com.example.purser', 'com.example.purser.gold60', 'Consumable', 1, 1795450404000,
        NULL, 'Sandbox', NULL, 'credited', 'v4-fay', 'a4000000-0000-4000-8000-000000000003', NULL, NULL,
        1795450405000, 1795450405000);

INSERT INTO grants (transaction_id, user_id, currency, amount, kind, created_at) VALUES
    ('4001', 'v4-fay', 'gold', 60, 'credit', 1795450205000),
    ('4002', 'v4-fay', 'gold', 120, 'credit', 1795450300000),
    ('4002', 'v4-fay', 'gold', -120, 'revoke', 1795450400000),
    ('4003', 'v4-fay', 'gold', 60, 'credit', 1795450405000);

INSERT INTO audit_log (at, subject, subject_id, event, cause, detail) VALUES
    (1795450205000, 'transaction', '4001', 'credited', 'submission by v4-fay',
        'to v4-fay gold+60 via order a4000000-0000-4000-8000-000000000001'),
    (1795450205000, 'order', 'a4000000-0000-4000-8000-000000000001', 'delivered', 'submission by v4-fay',
        'transaction 4001'),
    (1795450300000, 'transaction', '4002', 'credited', 'notification b4000000-0000-4000-8000-000000000001',
        'to v4-fay gold+120 via order a4000000-0000-4000-8000-000000000002'),
    (1795450300000, 'order', 'a4000000-0000-4000-8000-000000000002', 'delivered',
        'notification b4000000-0000-4000-8000-000000000001', 'transaction 4002'),
    (1795450400000, 'transaction', '4002', 'revoked', 'notification b4000000-0000-4000-8000-000000000002',
        'from v4-fay gold-120'),
    (1795450405000, 'transaction', '4003', 'credited', 'submission by v4-fay',
        'to v4-fay gold+60 via order a4000000-0000-4000-8000-000000000003'),
    (1795450405000, 'order', 'a4000000-0000-4000-8000-000000000003', 'delivered', 'submission by v4-fay',
        'transaction 4003');

INSERT INTO outbox (idempotency_key, webhook_id, topic, user_id, sequence, payload, created_at, dispatched_at) VALUES
    ('4001:credited', 'evt_4001_credited', 'transaction.credited', 'v4-fay', 1,
        '{"data":{"cause":"client","environment":"Sandbox","grants":{"gold":60},"occurredAt":"2026-11-23T16:10:05.000Z","orderId":"a4000000-0000-4000-8000-000000000001","originalTransactionId":"4001","productId":"com.example.purser.gold60","quantity":1,"sequence":1,"transactionId":"4001","userId":"v4-fay"},"timestamp":"2026-11-23T16:10:05.000Z","type":"transaction.credited"}',
        1795450205000, 1795450205100),
    ('4002:credited', 'evt_4002_credited', 'transaction.credited', 'v4-fay', 2,
        '{"data":{"cause":"notification","environment":"Sandbox","grants":{"gold":120},"occurredAt":"2026-11-23T16:11:40.000Z","orderId":"a4000000-0000-4000-8000-000000000002","originalTransactionId":"4002","productId":"com.example.purser.gold120","quantity":1,"sequence":2,"transactionId":"4002","userId":"v4-fay"},"timestamp":"2026-11-23T16:11:40.000Z","type":"transaction.credited"}',
        1795450300000, 1795450300100),
    ('4002:revoke:1', 'evt_4002_revoke_1', 'transaction.revoked', 'v4-fay', 3,
        '{"data":{"environment":"Sandbox","grants":{"gold":-120},"occurredAt":"2026-11-23T16:13:20.000Z","orderId":"a4000000-0000-4000-8000-000000000002","originalTransactionId":"4002","productId":"com.example.purser.gold120","quantity":1,"sequence":3,"share":1,"transactionId":"4002","userId":"v4-fay"},"timestamp":"2026-11-23T16:13:20.000Z","type":"transaction.revoked"}',
        1795450400000, 1795450400100),
    ('4003:credited', 'evt_4003_credited', 'transaction.credited', 'v4-fay', 4,
        '{"data":{"cause":"client","environment":"Sandbox","grants":{"gold":60},"occurredAt":"2026-11-23T16:13:25.000Z","orderId":"a4000000-0000-4000-8000-000000000003","originalTransactionId":"4003","productId":"com.example.purser.gold60","quantity":1,"sequence":4,"transactionId":"4003","userId":"v4-fay"},"timestamp":"2026-11-23T16:13:25.000Z","type":"transaction.credited"}',
        1795450405000, NULL);

-- postgres only
INSERT INTO webhook_sequences (user_id, last) VALUES ('v4-fay', 4);

INSERT INTO webhook_deliveries (event_id, endpoint, status, attempts, next_attempt_at, claimed_by, claimed_until,
    last_attempt_at, last_result, delivered_at, created_at)
SELECT id, 'https://game.example/purser', 'delivered', 1, 1795450206000, NULL, NULL, 1795450206000, 'HTTP 204',
    1795450206000, 1795450205100 FROM outbox WHERE webhook_id = 'evt_4001_credited';

INSERT INTO webhook_deliveries (event_id, endpoint, status, attempts, next_attempt_at, claimed_by, claimed_until,
    last_attempt_at, last_result, delivered_at, created_at)
SELECT id, 'https://audit.example/purser', 'dead', 8, 1795450390000, NULL, NULL, 1795450390000, 'connection refused',
    NULL, 1795450205100 FROM outbox WHERE webhook_id = 'evt_4001_credited';

INSERT INTO webhook_deliveries (event_id, endpoint, status, attempts, next_attempt_at, claimed_by, claimed_until,
    last_attempt_at, last_result, delivered_at, created_at)
SELECT id, 'https://game.example/purser', 'delivered', 1, 1795450301000, NULL, NULL, 1795450301000, 'HTTP 200',
    1795450301000, 1795450300100 FROM outbox WHERE webhook_id = 'evt_4002_credited';

INSERT INTO webhook_deliveries (event_id, endpoint, status, attempts, next_attempt_at, claimed_by, claimed_until,
    last_attempt_at, last_result, delivered_at, created_at)
SELECT id, 'https://game.example/purser', 'failed', 2, 1795450460000, NULL, NULL, 1795450430000, 'HTTP 500',
    NULL, 1795450400100 FROM outbox WHERE webhook_id = 'evt_4002_revoke_1';

INSERT INTO notifications (notification_uuid, notification_type, subtype, transaction_id, environment, signed_date,
    received_at, processed_at, outcome) VALUES
    ('b4000000-0000-4000-8000-000000000001', 'ONE_TIME_CHARGE', NULL, '4002', 'Sandbox', 1795450298000,
        1795450299000, 1795450300000, 'deliveredToOtherAccount to v4-fay'),
    ('b4000000-0000-4000-8000-000000000002', 'REFUND', NULL, '4002', 'Sandbox', 1795450398000, 1795450399000,
        1795450400000, 'revoked gold-120 from v4-fay');
