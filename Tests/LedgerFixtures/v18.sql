-- Rows as schema 18's releases (sqlite 18, postgres 18; a98fe53 the last of them) wrote them: a credit, with its
-- audit records and its transaction.credited event; balances are kept by migration 18's triggers as the grants land.
-- schema: sqlite 18, postgres 18
--
-- expect balance v18-ida gold 60
-- expect state 18001 credited
-- expect audit 18001 credited
-- expect purchases v18-ida 18001

INSERT INTO orders (id, user_id, product_id, quantity, state, transaction_id, created_at, updated_at) VALUES
    ('a1800000-0000-4000-8000-000000018001', 'v18-ida', 'com.example.purser.gold60', 1, 'delivered', '18001',
        1796600000000, 1796600005000);

INSERT INTO apple_transactions (transaction_id, original_transaction_id, bundle_id, product_id, type, quantity,
    purchase_date, app_account_token, environment, revocation_date, state, owner_id, order_id, rejection_code,
    rejection_message, recorded_at, updated_at, revocation_type, revocation_percentage, app_transaction_id,
    credited_by, finished_at_apple, app_account_token_for_apple) VALUES
    ('18001', '18001', 'com.example.purser', 'com.example.purser.gold60', 'Consumable', 1, 1796600004000,
        'a1800000-0000-4000-8000-000000018001', 'Sandbox', NULL, 'credited', 'v18-ida',
        'a1800000-0000-4000-8000-000000018001', NULL, NULL, 1796600005000, 1796600005000, NULL, NULL,
        'app-tx-18', 'client', NULL, NULL);

INSERT INTO grants (transaction_id, user_id, currency, amount, kind, created_at) VALUES
    ('18001', 'v18-ida', 'gold', 60, 'credit', 1796600005000);

INSERT INTO audit_log (at, subject, subject_id, event, cause, detail) VALUES
    (1796600005000, 'transaction', '18001', 'credited', 'submission by v18-ida',
        'to v18-ida gold+60 via order a1800000-0000-4000-8000-000000018001'),
    (1796600005000, 'order', 'a1800000-0000-4000-8000-000000018001', 'delivered', 'submission by v18-ida',
        'transaction 18001');

INSERT INTO outbox (idempotency_key, webhook_id, topic, user_id, sequence, payload, created_at, dispatched_at,
    pruned_at) VALUES
    ('18001:credited', 'evt_7a18c2d4e6f8091a2b3c4d5e6f708118', 'transaction.credited', 'v18-ida', 1,
        '{"data":{"cause":"client","environment":"Sandbox","grants":{"gold":60},"occurredAt":"2026-12-07T05:33:25.000Z","orderId":"a1800000-0000-4000-8000-000000018001","originalTransactionId":"18001","productId":"com.example.purser.gold60","quantity":1,"sequence":1,"transactionId":"18001","userId":"v18-ida"},"timestamp":"2026-12-07T05:33:25.000Z","type":"transaction.credited"}',
        1796600005000, NULL, NULL);

-- postgres only
INSERT INTO webhook_sequences (user_id, last) VALUES ('v18-ida', 1);
