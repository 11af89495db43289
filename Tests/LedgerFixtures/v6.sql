-- Rows as schema 6's releases (a86a1a9 .. da32949: partial refunds and migration 6 together) wrote them: Apple's
-- appTransactionId on each transaction, who credited it (credited_by, a Submission.Source category), when Finish
-- Transaction succeeded at Apple (finished_at_apple) and the token Set App Account Token still has to write
-- (app_account_token_for_apple: a credit bound by the order hint, without a token); a prorated refund among them.
-- schema: sqlite 6, postgres 6
--
-- expect balance v6-hu gold 285
-- expect state 6001 credited
-- expect state 6002 credited
-- expect state 6003 credited
-- expect state 6004 revoked
-- expect revoked 6004 25000
-- expect audit 6004 credited revoked
-- expect apptx app-tx-6 6001 6002
-- expect apptx app-tx-7 6003 6004
-- expect followup 6001 finish
-- expect followup 6003 token a6000000-0000-4000-8000-000000000003
-- expect purchases v6-hu 6001 6002 6003 6004
-- expect history v6-hu credit:6001 credit:6002 credit:6003 credit:6004 revoke:6004
-- expect delivery evt_6001_credited https://game.example/purser delivered
-- expect delivery evt_6002_credited https://game.example/purser delivered
-- expect delivery evt_6003_credited https://game.example/purser delivered
-- expect event evt_6004_credited transaction.credited v6-hu 4 gold=60 reconciliation
-- expect event evt_6004_revoke_1 transaction.revoked v6-hu 5 gold=-15

INSERT INTO orders (id, user_id, product_id, quantity, state, transaction_id, created_at, updated_at) VALUES
    ('a6000000-0000-4000-8000-000000000001', 'v6-hu', 'com.example.purser.gold60', 1, 'delivered', '6001',
        1795457400000, 1795457405000),
    ('a6000000-0000-4000-8000-000000000002', 'v6-hu', 'com.example.purser.gold120', 1, 'delivered', '6002',
        1795457490000, 1795457500000),
    ('a6000000-0000-4000-8000-000000000003', 'v6-hu', 'com.example.purser.gold60', 1, 'delivered', '6003',
        1795457590000, 1795457600000),
    ('a6000000-0000-4000-8000-000000000004', 'v6-hu', 'com.example.purser.gold60', 1, 'delivered', '6004',
        1795457690000, 1795457700000);

INSERT INTO apple_transactions (transaction_id, original_transaction_id, bundle_id, product_id, type, quantity,
    purchase_date, app_account_token, environment, revocation_date, state, owner_id, order_id, rejection_code,
    rejection_message, recorded_at, updated_at, revocation_type, revocation_percentage, app_transaction_id,
    credited_by, app_account_token_for_apple) VALUES
    ('6001', '6001', 'com.example.purser', 'com.example.purser.gold60', 'Consumable', 1, 1795457404000,
        'a6000000-0000-4000-8000-000000000001', 'Sandbox', NULL, 'credited', 'v6-hu',
        'a6000000-0000-4000-8000-000000000001', NULL, NULL, 1795457405000, 1795457405000, NULL, NULL, 'app-tx-6',
        'client', NULL),
    ('6002', '6002', 'com.example.purser', 'com.example.purser.gold120', 'Consumable', 1, 1795457495000,
        'a6000000-0000-4000-8000-000000000002', 'Sandbox', NULL, 'credited', 'v6-hu',
        'a6000000-0000-4000-8000-000000000002', NULL, NULL, 1795457500000, 1795457500000, NULL, NULL, 'app-tx-6',
        'notification', NULL),
    ('6003', '6003', 'com.example.purser', 'com.example.purser.gold60', 'Consumable', 1, 1795457595000,
        NULL, 'Sandbox', NULL, 'credited', 'v6-hu', 'a6000000-0000-4000-8000-000000000003', NULL, NULL,
        1795457600000, 1795457600000, NULL, NULL, 'app-tx-7', 'client', 'a6000000-0000-4000-8000-000000000003'),
    ('6004', '6004', 'com.example.purser', 'com.example.purser.gold60', 'Consumable', 1, 1795457695000,
        'a6000000-0000-4000-8000-000000000004', 'Sandbox', 1795457798000, 'revoked', 'v6-hu',
        'a6000000-0000-4000-8000-000000000004', NULL, NULL, 1795457700000, 1795457800000, 'REFUND_PRORATED', 25000,
        'app-tx-7', 'reconciliation', NULL);

-- Finish Transaction succeeded for three of them (the fourth, credited by the client, is not due yet).
UPDATE apple_transactions SET finished_at_apple = 1795457710000 WHERE transaction_id IN ('6002', '6003', '6004');

INSERT INTO grants (transaction_id, user_id, currency, amount, kind, created_at) VALUES
    ('6001', 'v6-hu', 'gold', 60, 'credit', 1795457405000),
    ('6002', 'v6-hu', 'gold', 120, 'credit', 1795457500000),
    ('6003', 'v6-hu', 'gold', 60, 'credit', 1795457600000),
    ('6004', 'v6-hu', 'gold', 60, 'credit', 1795457700000),
    ('6004', 'v6-hu', 'gold', -15, 'revoke', 1795457800000);

INSERT INTO audit_log (at, subject, subject_id, event, cause, detail) VALUES
    (1795457405000, 'transaction', '6001', 'credited', 'submission by v6-hu',
        'to v6-hu gold+60 via order a6000000-0000-4000-8000-000000000001'),
    (1795457405000, 'order', 'a6000000-0000-4000-8000-000000000001', 'delivered', 'submission by v6-hu',
        'transaction 6001'),
    (1795457500000, 'transaction', '6002', 'credited', 'notification b6000000-0000-4000-8000-000000000001',
        'to v6-hu gold+120 via order a6000000-0000-4000-8000-000000000002'),
    (1795457500000, 'order', 'a6000000-0000-4000-8000-000000000002', 'delivered',
        'notification b6000000-0000-4000-8000-000000000001', 'transaction 6002'),
    (1795457600000, 'transaction', '6003', 'credited', 'submission by v6-hu',
        'to v6-hu gold+60 via order a6000000-0000-4000-8000-000000000003'),
    (1795457600000, 'order', 'a6000000-0000-4000-8000-000000000003', 'delivered', 'submission by v6-hu',
        'transaction 6003'),
    (1795457700000, 'transaction', '6004', 'credited', 'reconciliation',
        'to v6-hu gold+60 via order a6000000-0000-4000-8000-000000000004'),
    (1795457700000, 'order', 'a6000000-0000-4000-8000-000000000004', 'delivered', 'reconciliation',
        'transaction 6004'),
    (1795457800000, 'transaction', '6004', 'revoked', 'notification b6000000-0000-4000-8000-000000000002',
        'from v6-hu gold-15 (REFUND_PRORATED: 0.000% → 25.000% of the purchase revoked)');

INSERT INTO outbox (idempotency_key, webhook_id, topic, user_id, sequence, payload, created_at, dispatched_at) VALUES
    ('6001:credited', 'evt_6001_credited', 'transaction.credited', 'v6-hu', 1,
        '{"data":{"cause":"client","environment":"Sandbox","grants":{"gold":60},"occurredAt":"2026-11-23T18:10:05.000Z","orderId":"a6000000-0000-4000-8000-000000000001","originalTransactionId":"6001","productId":"com.example.purser.gold60","quantity":1,"sequence":1,"transactionId":"6001","userId":"v6-hu"},"timestamp":"2026-11-23T18:10:05.000Z","type":"transaction.credited"}',
        1795457405000, 1795457405100),
    ('6002:credited', 'evt_6002_credited', 'transaction.credited', 'v6-hu', 2,
        '{"data":{"cause":"notification","environment":"Sandbox","grants":{"gold":120},"occurredAt":"2026-11-23T18:11:40.000Z","orderId":"a6000000-0000-4000-8000-000000000002","originalTransactionId":"6002","productId":"com.example.purser.gold120","quantity":1,"sequence":2,"transactionId":"6002","userId":"v6-hu"},"timestamp":"2026-11-23T18:11:40.000Z","type":"transaction.credited"}',
        1795457500000, 1795457500100),
    ('6003:credited', 'evt_6003_credited', 'transaction.credited', 'v6-hu', 3,
        '{"data":{"cause":"client","environment":"Sandbox","grants":{"gold":60},"occurredAt":"2026-11-23T18:13:20.000Z","orderId":"a6000000-0000-4000-8000-000000000003","originalTransactionId":"6003","productId":"com.example.purser.gold60","quantity":1,"sequence":3,"transactionId":"6003","userId":"v6-hu"},"timestamp":"2026-11-23T18:13:20.000Z","type":"transaction.credited"}',
        1795457600000, 1795457600100),
    ('6004:credited', 'evt_6004_credited', 'transaction.credited', 'v6-hu', 4,
        '{"data":{"cause":"reconciliation","environment":"Sandbox","grants":{"gold":60},"occurredAt":"2026-11-23T18:15:00.000Z","orderId":"a6000000-0000-4000-8000-000000000004","originalTransactionId":"6004","productId":"com.example.purser.gold60","quantity":1,"sequence":4,"transactionId":"6004","userId":"v6-hu"},"timestamp":"2026-11-23T18:15:00.000Z","type":"transaction.credited"}',
        1795457700000, NULL),
    ('6004:revoke:1', 'evt_6004_revoke_1', 'transaction.revoked', 'v6-hu', 5,
        '{"data":{"environment":"Sandbox","grants":{"gold":-15},"occurredAt":"2026-11-23T18:16:40.000Z","orderId":"a6000000-0000-4000-8000-000000000004","originalTransactionId":"6004","productId":"com.example.purser.gold60","quantity":1,"revocationPercentage":25000,"revocationType":"REFUND_PRORATED","sequence":5,"share":0.25,"transactionId":"6004","userId":"v6-hu"},"timestamp":"2026-11-23T18:16:40.000Z","type":"transaction.revoked"}',
        1795457800000, NULL);

-- postgres only
INSERT INTO webhook_sequences (user_id, last) VALUES ('v6-hu', 5);

INSERT INTO webhook_deliveries (event_id, endpoint, status, attempts, next_attempt_at, claimed_by, claimed_until,
    last_attempt_at, last_result, delivered_at, created_at)
SELECT id, 'https://game.example/purser', 'delivered', 1, created_at + 1000, NULL, NULL, created_at + 1000,
    'HTTP 204', created_at + 1000, created_at + 100
FROM outbox WHERE webhook_id IN ('evt_6001_credited', 'evt_6002_credited', 'evt_6003_credited');

INSERT INTO notifications (notification_uuid, notification_type, subtype, transaction_id, environment, signed_date,
    received_at, processed_at, outcome) VALUES
    ('b6000000-0000-4000-8000-000000000001', 'ONE_TIME_CHARGE', NULL, '6002', 'Sandbox', 1795457498000,
        1795457499000, 1795457500000, 'deliveredToOtherAccount to v6-hu'),
    ('b6000000-0000-4000-8000-000000000002', 'REFUND', NULL, '6004', 'Sandbox', 1795457798000, 1795457799000,
        1795457800000, 'revoked gold-15 from v6-hu');
