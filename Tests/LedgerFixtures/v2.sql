-- Rows as schema 2's releases (39254db .. 781ee13) wrote them: App Store Server Notifications recorded once and
-- processed (one still unprocessed), refunds that revoke a whole credit (negative `revoke` grants, the transaction
-- `revoked`, a `transaction.revoked` outbox row keyed `<id>:revoke:<n>`) and their reversal (`restore`), an order
-- the app cancelled and one that Apple's token-bound charge delivered after its cancel, a support credit of an unbound
-- transaction, an unbound one found by reconciliation, and reconciliation's cursors.
-- schema: sqlite 2, postgres 2
--
-- expect balance v2-di gold 180
-- expect balance v2-cy gold 0
-- expect state 2001 revoked
-- expect revoked 2001 100000
-- expect state 2002 credited
-- expect state 2003 credited
-- expect state 2004 unbound
-- expect audit 2001 credited revoked
-- expect audit 2002 credited revoked restored
-- expect audit 2003 recorded_unbound credited
-- expect audit a2000000-0000-4000-8000-000000000003 cancelled delivered
-- expect order a2000000-0000-4000-8000-000000000002 cancelled
-- expect order a2000000-0000-4000-8000-000000000003 delivered
-- expect unbound 2004
-- expect purchases v2-cy 2001
-- expect purchases v2-di 2002 2003
-- expect history v2-cy credit:2001 revoke:2001
-- expect history v2-di credit:2002 credit:2003 revoke:2002 restore:2002
-- expect notification b2000000-0000-4000-8000-000000000001
-- expect notification b2000000-0000-4000-8000-000000000004
-- expect unprocessed b2000000-0000-4000-8000-000000000005
-- expect cursor notification-history.end 1795366700
-- expect cursor transaction-history.2003 rev-2003-a
-- expect event evt_2001_credited transaction.credited v2-cy 1 gold=60 client
-- expect event evt_2001_revoke_1 transaction.revoked v2-cy 2 gold=-60
-- expect event evt_2002_credited transaction.credited v2-di 1 gold=120 notification
-- expect event evt_2003_credited transaction.credited v2-di 2 gold=60 support
-- expect event evt_2002_revoke_1 transaction.revoked v2-di 3 gold=-120
-- expect event evt_2002_restore_1 transaction.restored v2-di 4 gold=120

INSERT INTO orders (id, user_id, product_id, quantity, state, transaction_id, created_at, updated_at) VALUES
    ('a2000000-0000-4000-8000-000000000001', 'v2-cy', 'com.example.purser.gold60', 1, 'delivered', '2001',
        1795366800000, 1795366805000),
    ('a2000000-0000-4000-8000-000000000002', 'v2-cy', 'com.example.purser.gold60', 1, 'cancelled', NULL,
        1795366810000, 1795366812000),
    ('a2000000-0000-4000-8000-000000000003', 'v2-di', 'com.example.purser.gold120', 1, 'delivered', '2002',
        1795366820000, 1795366830000);

INSERT INTO apple_transactions (transaction_id, original_transaction_id, bundle_id, product_id, type, quantity,
    purchase_date, app_account_token, environment, revocation_date, state, owner_id, order_id, rejection_code,
    rejection_message, recorded_at, updated_at) VALUES
    ('2001', '2001', 'com.example.purser', 'com.example.purser.gold60', 'Consumable', 1, 1795366804000,
        'a2000000-0000-4000-8000-000000000001', 'Sandbox', 1795366900000, 'revoked', 'v2-cy',
        'a2000000-0000-4000-8000-000000000001', NULL, NULL, 1795366805000, 1795366905000),
    ('2002', '2002', 'com.example.purser', 'com.example.purser.gold120', 'Consumable', 1, 1795366825000,
        'a2000000-0000-4000-8000-000000000003', 'Sandbox', NULL, 'credited', 'v2-di',
        'a2000000-0000-4000-8000-000000000003', NULL, NULL, 1795366830000, 1795367000000),
    ('2003', '2003', 'com.example.purser', 'com.example.purser.gold60', 'Consumable', 1, 1795366835000,
        NULL, 'Sandbox', NULL, 'credited', 'v2-di', NULL, NULL, NULL, 1795366840000, 1795366850000),
    ('2004', '2004', 'com.example.purser', 'com.example.purser.gold60', 'Consumable', 1, 1795366855000,
        'c2000000-0000-4000-8000-000000000009', 'Sandbox', NULL, 'unbound', NULL, NULL, NULL, NULL,
        1795366860000, 1795366860000);

INSERT INTO grants (transaction_id, user_id, currency, amount, kind, created_at) VALUES
    ('2001', 'v2-cy', 'gold', 60, 'credit', 1795366805000),
    ('2002', 'v2-di', 'gold', 120, 'credit', 1795366830000),
    ('2003', 'v2-di', 'gold', 60, 'credit', 1795366850000),
    ('2001', 'v2-cy', 'gold', -60, 'revoke', 1795366905000),
    ('2002', 'v2-di', 'gold', -120, 'revoke', 1795366950000),
    ('2002', 'v2-di', 'gold', 120, 'restore', 1795367000000);

INSERT INTO audit_log (at, subject, subject_id, event, cause, detail) VALUES
    (1795366805000, 'transaction', '2001', 'credited', 'submission by v2-cy',
        'to v2-cy gold+60 via order a2000000-0000-4000-8000-000000000001'),
    (1795366805000, 'order', 'a2000000-0000-4000-8000-000000000001', 'delivered', 'submission by v2-cy',
        'transaction 2001'),
    (1795366812000, 'order', 'a2000000-0000-4000-8000-000000000002', 'cancelled', 'client',
        'the payment sheet was dismissed'),
    (1795366822000, 'order', 'a2000000-0000-4000-8000-000000000003', 'cancelled', 'client', 'payment failed'),
    (1795366830000, 'transaction', '2002', 'credited', 'notification b2000000-0000-4000-8000-000000000002',
        'to v2-di gold+120 via order a2000000-0000-4000-8000-000000000003'),
    (1795366830000, 'order', 'a2000000-0000-4000-8000-000000000003', 'delivered',
        'notification b2000000-0000-4000-8000-000000000002', 'transaction 2002'),
    (1795366840000, 'transaction', '2003', 'recorded_unbound', 'submission by v2-di',
        'no appAccountToken and no order hint'),
    (1795366850000, 'transaction', '2003', 'credited', 'support by ops for v2-di: paid, the app lost the order',
        'to v2-di gold+60'),
    (1795366860000, 'transaction', '2004', 'recorded_unbound', 'reconciliation',
        'appAccountToken c2000000-0000-4000-8000-000000000009 names no order'),
    (1795366905000, 'transaction', '2001', 'revoked', 'notification b2000000-0000-4000-8000-000000000001',
        'from v2-cy gold-60'),
    (1795366950000, 'transaction', '2002', 'revoked', 'notification b2000000-0000-4000-8000-000000000003',
        'from v2-di gold-120'),
    (1795367000000, 'transaction', '2002', 'restored', 'notification b2000000-0000-4000-8000-000000000004',
        'to v2-di gold+120');

INSERT INTO outbox (idempotency_key, topic, payload, created_at) VALUES
    ('2001:credited', 'transaction.credited',
        '{"transactionId":"2001","userId":"v2-cy","orderId":"a2000000-0000-4000-8000-000000000001","grants":{"gold":60}}',
        1795366805000),
    ('2002:credited', 'transaction.credited',
        '{"transactionId":"2002","userId":"v2-di","orderId":"a2000000-0000-4000-8000-000000000003","grants":{"gold":120}}',
        1795366830000),
    ('2003:credited', 'transaction.credited', '{"transactionId":"2003","userId":"v2-di","grants":{"gold":60}}',
        1795366850000),
    ('2001:revoke:1', 'transaction.revoked',
        '{"transactionId":"2001","userId":"v2-cy","orderId":"a2000000-0000-4000-8000-000000000001","grants":{"gold":-60}}',
        1795366905000),
    ('2002:revoke:1', 'transaction.revoked',
        '{"transactionId":"2002","userId":"v2-di","orderId":"a2000000-0000-4000-8000-000000000003","grants":{"gold":-120}}',
        1795366950000),
    ('2002:restore:1', 'transaction.restored',
        '{"transactionId":"2002","userId":"v2-di","orderId":"a2000000-0000-4000-8000-000000000003","grants":{"gold":120}}',
        1795367000000);

INSERT INTO notifications (notification_uuid, notification_type, subtype, transaction_id, environment, signed_date,
    received_at, processed_at, outcome) VALUES
    ('b2000000-0000-4000-8000-000000000002', 'ONE_TIME_CHARGE', NULL, '2002', 'Sandbox', 1795366828000,
        1795366829000, 1795366830000, 'deliveredToOtherAccount to v2-di'),
    ('b2000000-0000-4000-8000-000000000001', 'REFUND', NULL, '2001', 'Sandbox', 1795366903000, 1795366904000,
        1795366905000, 'revoked gold-60 from v2-cy'),
    ('b2000000-0000-4000-8000-000000000003', 'REFUND', NULL, '2002', 'Sandbox', 1795366948000, 1795366949000,
        1795366950000, 'revoked gold-120 from v2-di'),
    ('b2000000-0000-4000-8000-000000000004', 'REFUND_REVERSED', NULL, '2002', 'Sandbox', 1795366998000,
        1795366999000, 1795367000000, 'restored to v2-di'),
    ('b2000000-0000-4000-8000-000000000005', 'CONSUMPTION_REQUEST', NULL, '2001', 'Sandbox', 1795367008000,
        1795367009000, NULL, NULL);

INSERT INTO reconciliation_cursors (name, value, updated_at) VALUES
    ('notification-history.end', '1795366700', 1795366860000),
    ('transaction-history.2003', 'rev-2003-a', 1795366860000);
