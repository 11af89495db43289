-- Rows as schema 19's releases (sqlite 19, postgres 19; 922c14d the last of them) wrote them: a credit settled
-- inside a trace, with its trace link (migration 19), its audit records and its transaction.credited event; the
-- balance is kept by migration 18's triggers as the grant lands (SQLite rebuilds that table in migration 20).
-- schema: sqlite 19, postgres 19
--
-- expect balance v19-jo gold 120
-- expect state 19001 credited
-- expect audit 19001 credited
-- expect purchases v19-jo 19001
-- expect trace 19001 00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01

INSERT INTO orders (id, user_id, product_id, quantity, state, transaction_id, created_at, updated_at) VALUES
    ('a1900000-0000-4000-8000-000000019001', 'v19-jo', 'com.example.purser.gold60', 2, 'delivered', '19001',
        1796700000000, 1796700005000);

INSERT INTO apple_transactions (transaction_id, original_transaction_id, bundle_id, product_id, type, quantity,
    purchase_date, app_account_token, environment, revocation_date, state, owner_id, order_id, rejection_code,
    rejection_message, recorded_at, updated_at, revocation_type, revocation_percentage, app_transaction_id,
    credited_by, finished_at_apple, app_account_token_for_apple) VALUES
    ('19001', '19001', 'com.example.purser', 'com.example.purser.gold60', 'Consumable', 2, 1796700004000,
        'a1900000-0000-4000-8000-000000019001', 'Sandbox', NULL, 'credited', 'v19-jo',
        'a1900000-0000-4000-8000-000000019001', NULL, NULL, 1796700005000, 1796700005000, NULL, NULL,
        'app-tx-19', 'client', NULL, NULL);

INSERT INTO grants (transaction_id, user_id, currency, amount, kind, created_at) VALUES
    ('19001', 'v19-jo', 'gold', 120, 'credit', 1796700005000);

INSERT INTO trace_links (transaction_id, trace_parent, recorded_at) VALUES
    ('19001', '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01', 1796700005000);

INSERT INTO audit_log (at, subject, subject_id, event, cause, detail) VALUES
    (1796700005000, 'transaction', '19001', 'credited', 'submission by v19-jo',
        'to v19-jo gold+120 via order a1900000-0000-4000-8000-000000019001'),
    (1796700005000, 'order', 'a1900000-0000-4000-8000-000000019001', 'delivered', 'submission by v19-jo',
        'transaction 19001');

INSERT INTO outbox (idempotency_key, webhook_id, topic, user_id, sequence, payload, created_at, dispatched_at,
    pruned_at) VALUES
    ('19001:credited', 'evt_3c19d5e7f9a1b2c3d4e5f60718293a4b', 'transaction.credited', 'v19-jo', 1,
        '{"data":{"cause":"client","environment":"Sandbox","grants":{"gold":120},"occurredAt":"2026-12-08T03:20:05.000Z","orderId":"a1900000-0000-4000-8000-000000019001","originalTransactionId":"19001","productId":"com.example.purser.gold60","quantity":2,"sequence":1,"transactionId":"19001","userId":"v19-jo"},"timestamp":"2026-12-08T03:20:05.000Z","type":"transaction.credited"}',
        1796700005000, NULL, NULL);

-- postgres only
INSERT INTO webhook_sequences (user_id, last) VALUES ('v19-jo', 1);
