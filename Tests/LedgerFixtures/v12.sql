-- Rows as schema 12's releases (0cec98c .. 0093285) wrote them: a credit whose webhook event was delivered and then
-- pruned by retention (payload '{}', pruned_at), and a user erased on request (the pseudonym in their rows, the
-- user.erased event and the audit record).
-- schema: sqlite 12, postgres 12
--
-- expect balance v12-ivy gold 60
-- expect balance erased-0123456789abcdef0123456789abcdef gold 120
-- expect delivery evt_12001_credited https://game.example/purser delivered
-- expect audit 12001 credited
-- expect audit erased-0123456789abcdef0123456789abcdef erased
-- expect history v12-ivy credit:12001

INSERT INTO orders (id, user_id, product_id, quantity, state, transaction_id, created_at, updated_at) VALUES
    ('a1200000-0000-4000-8000-000000012001', 'v12-ivy', 'com.example.purser.gold60', 1, 'delivered', '12001',
        1795700000000, 1795700005000),
    ('a1200000-0000-4000-8000-000000012002', 'erased-0123456789abcdef0123456789abcdef',
        'com.example.purser.gold120', 1, 'delivered', '12002', 1795700100000, 1795700105000);

INSERT INTO apple_transactions (transaction_id, original_transaction_id, bundle_id, product_id, type, quantity,
    purchase_date, app_account_token, environment, revocation_date, state, owner_id, order_id, rejection_code,
    rejection_message, recorded_at, updated_at, revocation_type, revocation_percentage, app_transaction_id,
    credited_by, finished_at_apple, app_account_token_for_apple) VALUES
    ('12001', '12001', 'com.example.purser', 'com.example.purser.gold60', 'Consumable', 1, 1795700004000,
        'a1200000-0000-4000-8000-000000012001', 'Sandbox', NULL, 'credited', 'v12-ivy',
        'a1200000-0000-4000-8000-000000012001', NULL, NULL, 1795700005000, 1795700005000, NULL, NULL, 'app-tx-12',
        'client', 1795700060000, NULL),
    ('12002', '12002', 'com.example.purser', 'com.example.purser.gold120', 'Consumable', 1, 1795700104000,
        'a1200000-0000-4000-8000-000000012002', 'Sandbox', NULL, 'credited',
        'erased-0123456789abcdef0123456789abcdef', 'a1200000-0000-4000-8000-000000012002', NULL, NULL,
        1795700105000, 1795700105000, NULL, NULL, 'app-tx-12e', 'client', 1795700160000, NULL);

INSERT INTO grants (transaction_id, user_id, currency, amount, kind, created_at) VALUES
    ('12001', 'v12-ivy', 'gold', 60, 'credit', 1795700005000),
    ('12002', 'erased-0123456789abcdef0123456789abcdef', 'gold', 120, 'credit', 1795700105000);

INSERT INTO audit_log (at, subject, subject_id, event, cause, detail) VALUES
    (1795700005000, 'transaction', '12001', 'credited', 'submission by v12-ivy',
        'to v12-ivy gold+60 via order a1200000-0000-4000-8000-000000012001'),
    (1795700005000, 'order', 'a1200000-0000-4000-8000-000000012001', 'delivered', 'submission by v12-ivy',
        'transaction 12001'),
    (1795700105000, 'transaction', '12002', 'credited', 'submission by erased-0123456789abcdef0123456789abcdef',
        'to erased-0123456789abcdef0123456789abcdef gold+120 via order a1200000-0000-4000-8000-000000012002'),
    (1795700105000, 'order', 'a1200000-0000-4000-8000-000000012002', 'delivered',
        'submission by erased-0123456789abcdef0123456789abcdef', 'transaction 12002'),
    (1795700200000, 'user', 'erased-0123456789abcdef0123456789abcdef', 'erased', 'support by sam',
        'rows: apple_transactions 1, audit_log 3, grants 1, orders 1, outbox 1');

-- Retention pruned the delivered event's payload: the row stays, with '{}' and when it was pruned.
INSERT INTO outbox (idempotency_key, webhook_id, topic, user_id, sequence, payload, created_at, dispatched_at,
    pruned_at) VALUES
    ('12001:credited', 'evt_12001_credited', 'transaction.credited', 'v12-ivy', 1, '{}', 1795700005000,
        1795700005100, 1803476005000),
    ('12002:credited', 'evt_12002_credited', 'transaction.credited', 'erased-0123456789abcdef0123456789abcdef', 1,
        '{"data":{"cause":"client","environment":"Sandbox","grants":{"gold":120},"occurredAt":"2026-11-26T13:35:05.000Z","orderId":"a1200000-0000-4000-8000-000000012002","originalTransactionId":"12002","productId":"com.example.purser.gold120","quantity":1,"sequence":1,"transactionId":"12002","userId":"erased-0123456789abcdef0123456789abcdef"},"timestamp":"2026-11-26T13:35:05.000Z","type":"transaction.credited"}',
        1795700105000, NULL, NULL),
    ('erased:erased-0123456789abcdef0123456789abcdef:1795700200000',
        'evt_erased_erased-0123456789abcdef0123456789abcdef_1795700200000',
        'user.erased', 'erased-0123456789abcdef0123456789abcdef', 2,
        '{"data":{"occurredAt":"2026-11-26T13:36:40.000Z","sequence":2,"userId":"erased-0123456789abcdef0123456789abcdef"},"timestamp":"2026-11-26T13:36:40.000Z","type":"user.erased"}',
        1795700200000, NULL, NULL);

INSERT INTO webhook_deliveries (event_id, endpoint, status, attempts, next_attempt_at, claimed_by, claimed_until,
    last_attempt_at, last_result, delivered_at, created_at)
SELECT id, 'https://game.example/purser', 'delivered', 1, 1795700006000, NULL, NULL, 1795700006000, 'HTTP 204',
    1795700006000, 1795700005100 FROM outbox WHERE webhook_id = 'evt_12001_credited';

-- postgres only
INSERT INTO webhook_sequences (user_id, last) VALUES ('v12-ivy', 1), ('erased-0123456789abcdef0123456789abcdef', 2);
