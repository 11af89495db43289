-- Rows as schema 3's releases (73aaefd .. 00d86ce, the first with a PostgreSQL store) wrote them: the same shapes as
-- schema 2, and a lease on a unit of background work.
-- schema: sqlite 3, postgres 3
--
-- expect balance v3-ed gold 120
-- expect state 3001 credited
-- expect audit 3001 credited
-- expect order a3000000-0000-4000-8000-000000000001 delivered
-- expect purchases v3-ed 3001
-- expect history v3-ed credit:3001
-- expect lease reconciliation 1795446660000
-- expect event evt_3001_credited transaction.credited v3-ed 1 gold=120 client

INSERT INTO orders (id, user_id, product_id, quantity, state, transaction_id, created_at, updated_at) VALUES
    ('a3000000-0000-4000-8000-000000000001', 'v3-ed', 'com.example.purser.gold120', 1, 'delivered', '3001',
        1795446600000, 1795446605000);

INSERT INTO apple_transactions (transaction_id, original_transaction_id, bundle_id, product_id, type, quantity,
    purchase_date, app_account_token, environment, revocation_date, state, owner_id, order_id, rejection_code,
    rejection_message, recorded_at, updated_at) VALUES
    ('3001', '3001', 'com.example.purser', 'com.example.purser.gold120', 'Consumable', 1, 1795446604000,
        'a3000000-0000-4000-8000-000000000001', 'Production', NULL, 'credited', 'v3-ed',
        'a3000000-0000-4000-8000-000000000001', NULL, NULL, 1795446605000, 1795446605000);

INSERT INTO grants (transaction_id, user_id, currency, amount, kind, created_at) VALUES
    ('3001', 'v3-ed', 'gold', 120, 'credit', 1795446605000);

INSERT INTO audit_log (at, subject, subject_id, event, cause, detail) VALUES
    (1795446605000, 'transaction', '3001', 'credited', 'submission by v3-ed',
        'to v3-ed gold+120 via order a3000000-0000-4000-8000-000000000001'),
    (1795446605000, 'order', 'a3000000-0000-4000-8000-000000000001', 'delivered', 'submission by v3-ed',
        'transaction 3001');

INSERT INTO outbox (idempotency_key, topic, payload, created_at) VALUES
    ('3001:credited', 'transaction.credited',
        '{"transactionId":"3001","userId":"v3-ed","orderId":"a3000000-0000-4000-8000-000000000001","grants":{"gold":120}}',
        1795446605000);

-- A replica's lease on reconciliation, left behind by a process that stopped (leases are never deleted).
INSERT INTO leases (name, holder, expires_at) VALUES ('reconciliation', 'host-a:4242', 1795446660000);
