-- A ledger as Purser's first release (schema 1: c86ec61 .. d0d4f9d) wrote it: orders, Apple transactions
-- (credited by token and by the client's order hint, unbound, rejected, revoked before any credit), credit grants,
-- the audit log and the outbox's first payload ({transactionId, userId, orderId, grants}, no webhook columns yet).
-- PostgreSQL had no store at this version; the same rows load into its schema 1 to test its migrations alike.
-- schema: sqlite 1, postgres 1
--
-- expect balance v1-ada gold 160
-- expect balance v1-ada gems 5
-- expect balance v1-bo gold 120
-- expect state 1001 credited
-- expect state 1002 credited
-- expect state 1003 unbound
-- expect state 1004 rejected
-- expect state 1005 revoked
-- expect state 1006 credited
-- expect audit 1001 credited
-- expect audit a1000000-0000-4000-8000-000000000001 delivered
-- expect audit 1003 recorded_unbound
-- expect audit 1004 rejected
-- expect audit 1005 recorded_revoked
-- expect order a1000000-0000-4000-8000-000000000003 created
-- expect order a1000000-0000-4000-8000-000000000002 delivered
-- expect unbound 1003
-- expect purchases v1-ada 1001 1006
-- expect purchases v1-bo 1002
-- expect history v1-ada credit:1001 credit:1006
-- expect event evt_1001_credited transaction.credited v1-ada 1 gold=60
-- expect event evt_1006_credited transaction.credited v1-ada 2 gems=5,gold=100
-- expect event evt_1002_credited transaction.credited v1-bo 1 gold=120

INSERT INTO orders (id, user_id, product_id, quantity, state, transaction_id, created_at, updated_at) VALUES
    ('a1000000-0000-4000-8000-000000000001', 'v1-ada', 'com.example.purser.gold60', 1, 'delivered', '1001',
        1795363800000, 1795363805000),
    ('a1000000-0000-4000-8000-000000000002', 'v1-bo', 'com.example.purser.gold60', 2, 'delivered', '1002',
        1795363810000, 1795363815000),
    ('a1000000-0000-4000-8000-000000000003', 'v1-bo', 'com.example.purser.gold60', 1, 'created', NULL,
        1795363820000, 1795363820000),
    ('a1000000-0000-4000-8000-000000000004', 'v1-ada', 'com.example.purser.starter', 1, 'delivered', '1006',
        1795363830000, 1795363835000);

INSERT INTO apple_transactions (transaction_id, original_transaction_id, bundle_id, product_id, type, quantity,
    purchase_date, app_account_token, environment, revocation_date, state, owner_id, order_id, rejection_code,
    rejection_message, recorded_at, updated_at) VALUES
    ('1001', '1001', 'com.example.purser', 'com.example.purser.gold60', 'Consumable', 1, 1795363804000,
        'a1000000-0000-4000-8000-000000000001', 'Sandbox', NULL, 'credited', 'v1-ada',
        'a1000000-0000-4000-8000-000000000001', NULL, NULL, 1795363805000, 1795363805000),
    ('1002', '1002', 'com.example.purser', 'com.example.purser.gold60', 'Consumable', 2, 1795363814000,
        NULL, 'Sandbox', NULL, 'credited', 'v1-bo', 'a1000000-0000-4000-8000-000000000002', NULL, NULL,
        1795363815000, 1795363815000),
    ('1003', '1003', 'com.example.purser', 'com.example.purser.gold60', 'Consumable', 1, 1795363824000,
        NULL, 'Sandbox', NULL, 'unbound', NULL, NULL, NULL, NULL, 1795363825000, 1795363825000),
    ('1004', '1004', 'com.example.purser', 'com.example.purser.gold999', 'Consumable', 1, 1795363826000,
        NULL, 'Sandbox', NULL, 'rejected', NULL, NULL, 'unknown_product',
        'product com.example.purser.gold999 is not in the catalog', 1795363827000, 1795363827000),
    ('1005', '1005', 'com.example.purser', 'com.example.purser.gold60', 'Consumable', 1, 1795363700000,
        NULL, 'Sandbox', 1795363790000, 'revoked', NULL, NULL, NULL, NULL, 1795363828000, 1795363828000),
    ('1006', '1006', 'com.example.purser', 'com.example.purser.starter', 'Consumable', 1, 1795363834000,
        'a1000000-0000-4000-8000-000000000004', 'Sandbox', NULL, 'credited', 'v1-ada',
        'a1000000-0000-4000-8000-000000000004', NULL, NULL, 1795363835000, 1795363835000);

-- One credit row per currency, in the currencies' sorted order, as writeGrantsAndOutbox wrote them.
INSERT INTO grants (transaction_id, user_id, currency, amount, kind, created_at) VALUES
    ('1001', 'v1-ada', 'gold', 60, 'credit', 1795363805000),
    ('1002', 'v1-bo', 'gold', 120, 'credit', 1795363815000),
    ('1006', 'v1-ada', 'gems', 5, 'credit', 1795363835000),
    ('1006', 'v1-ada', 'gold', 100, 'credit', 1795363835000);

INSERT INTO audit_log (at, subject, subject_id, event, cause, detail) VALUES
    (1795363805000, 'transaction', '1001', 'credited', 'submission by v1-ada',
        'to v1-ada gold+60 via order a1000000-0000-4000-8000-000000000001'),
    (1795363805000, 'order', 'a1000000-0000-4000-8000-000000000001', 'delivered', 'submission by v1-ada',
        'transaction 1001'),
    (1795363815000, 'transaction', '1002', 'credited', 'submission by v1-bo',
        'to v1-bo gold+120 via order a1000000-0000-4000-8000-000000000002'),
    (1795363815000, 'order', 'a1000000-0000-4000-8000-000000000002', 'delivered', 'submission by v1-bo',
        'transaction 1002'),
    (1795363825000, 'transaction', '1003', 'recorded_unbound', 'submission by v1-bo',
        'no appAccountToken and no order hint'),
    (1795363827000, 'transaction', '1004', 'rejected', 'submission by v1-ada', 'unknown_product'),
    (1795363828000, 'transaction', '1005', 'recorded_revoked', 'submission by v1-ada',
        'Apple revoked it before it was credited'),
    (1795363835000, 'transaction', '1006', 'credited', 'submission by v1-ada',
        'to v1-ada gems+5 gold+100 via order a1000000-0000-4000-8000-000000000004'),
    (1795363835000, 'order', 'a1000000-0000-4000-8000-000000000004', 'delivered', 'submission by v1-ada',
        'transaction 1006');

-- OutboxCredit encoded by a plain JSONEncoder: declaration order, an absent orderId left out.
INSERT INTO outbox (idempotency_key, topic, payload, created_at) VALUES
    ('1001:credited', 'transaction.credited',
        '{"transactionId":"1001","userId":"v1-ada","orderId":"a1000000-0000-4000-8000-000000000001","grants":{"gold":60}}',
        1795363805000),
    ('1002:credited', 'transaction.credited',
        '{"transactionId":"1002","userId":"v1-bo","orderId":"a1000000-0000-4000-8000-000000000002","grants":{"gold":120}}',
        1795363815000),
    ('1006:credited', 'transaction.credited',
        '{"transactionId":"1006","userId":"v1-ada","orderId":"a1000000-0000-4000-8000-000000000004","grants":{"gold":100,"gems":5}}',
        1795363835000);
