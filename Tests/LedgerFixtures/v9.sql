-- Rows as the releases with support's override (fce013d ..; PostgreSQL's migration 9 widened its bind function,
-- SQLite's code changed alone) wrote them: a transaction refused as product_type_mismatch, then credited by an
-- operator's explicit override, the refusal cleared and audited.
-- schema: sqlite 8, postgres 9
--
-- expect balance v9-kim gold 60
-- expect state 9001 credited
-- expect audit 9001 rejected override credited
-- expect purchases v9-kim 9001
-- expect history v9-kim credit:9001
-- expect event evt_9001_credited transaction.credited v9-kim 1 gold=60 support

INSERT INTO apple_transactions (transaction_id, original_transaction_id, bundle_id, product_id, type, quantity,
    purchase_date, app_account_token, environment, revocation_date, state, owner_id, order_id, rejection_code,
    rejection_message, recorded_at, updated_at, revocation_type, revocation_percentage, app_transaction_id,
    credited_by, finished_at_apple, app_account_token_for_apple) VALUES
    ('9001', '9001', 'com.example.purser', 'com.example.purser.gold60', 'Non-Consumable', 1, 1795659304000,
        NULL, 'Sandbox', NULL, 'credited', 'v9-kim', NULL, NULL, NULL, 1795659305000, 1795659400000, NULL, NULL,
        'app-tx-9', 'support', 1795659410000, NULL);

INSERT INTO grants (transaction_id, user_id, currency, amount, kind, created_at) VALUES
    ('9001', 'v9-kim', 'gold', 60, 'credit', 1795659400000);

INSERT INTO audit_log (at, subject, subject_id, event, cause, detail) VALUES
    (1795659305000, 'transaction', '9001', 'rejected', 'submission by v9-kim', 'product_type_mismatch'),
    (1795659400000, 'transaction', '9001', 'override', 'support by ops for v9-kim: the catalog was wrong',
        'product_type_mismatch overridden: product com.example.purser.gold60 is Non-Consumable at Apple but consumable in the catalog'),
    (1795659400000, 'transaction', '9001', 'credited', 'support by ops for v9-kim: the catalog was wrong',
        'to v9-kim gold+60');

INSERT INTO outbox (idempotency_key, webhook_id, topic, user_id, sequence, payload, created_at, dispatched_at) VALUES
    ('9001:credited', 'evt_9001_credited', 'transaction.credited', 'v9-kim', 1,
        '{"data":{"cause":"support","environment":"Sandbox","grants":{"gold":60},"occurredAt":"2026-11-26T02:16:40.000Z","originalTransactionId":"9001","productId":"com.example.purser.gold60","quantity":1,"sequence":1,"transactionId":"9001","userId":"v9-kim"},"timestamp":"2026-11-26T02:16:40.000Z","type":"transaction.credited"}',
        1795659400000, NULL);

-- postgres only
INSERT INTO webhook_sequences (user_id, last) VALUES ('v9-kim', 1);
