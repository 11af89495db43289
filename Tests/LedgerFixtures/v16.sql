-- Rows as schema 16's releases (sqlite 16, postgres 17; 7a79d2b the last of them) wrote them: a credit, a spend that
-- leaves 10, then Apple's whole refund of the credit, which takes the balance below zero
-- (refunds.allowNegativeBalance). Balances were not stored then: migration 18 sums them from these grants and wallet
-- entries into `balances`, a negative one included, and the store reads them from there.
-- schema: sqlite 16, postgres 17
--
-- expect balance v16-max gold -50
-- expect state 16001 revoked
-- expect audit 16001 credited revoked
-- expect audit v16-spend-1 spent
-- expect purchases v16-max 16001
-- expect history v16-max credit:16001 spend:v16-spend-1 revoke:16001

INSERT INTO orders (id, user_id, product_id, quantity, state, transaction_id, created_at, updated_at) VALUES
    ('a1600000-0000-4000-8000-000000016001', 'v16-max', 'com.example.purser.gold60', 1, 'delivered', '16001',
        1795900000000, 1795900005000);

INSERT INTO apple_transactions (transaction_id, original_transaction_id, bundle_id, product_id, type, quantity,
    purchase_date, app_account_token, environment, revocation_date, state, owner_id, order_id, rejection_code,
    rejection_message, recorded_at, updated_at, revocation_type, revocation_percentage, app_transaction_id,
    credited_by, finished_at_apple, app_account_token_for_apple) VALUES
    ('16001', '16001', 'com.example.purser', 'com.example.purser.gold60', 'Consumable', 1, 1795900004000,
        'a1600000-0000-4000-8000-000000016001', 'Sandbox', 1795900300000, 'revoked', 'v16-max',
        'a1600000-0000-4000-8000-000000016001', NULL, NULL, 1795900005000, 1795900300000, NULL, 100000,
        'app-tx-16', 'client', 1795900060000, NULL);

INSERT INTO grants (transaction_id, user_id, currency, amount, kind, created_at) VALUES
    ('16001', 'v16-max', 'gold', 60, 'credit', 1795900005000),
    ('16001', 'v16-max', 'gold', -60, 'revoke', 1795900300000);

INSERT INTO wallet_transactions (idempotency_id, user_id, amounts, reason, metadata, cause, balances, created_at)
VALUES
    ('v16-spend-1', 'v16-max', '{"gold":-50}', 'a shield', NULL, 'admin', '{"gold":10}', 1795900100000);

INSERT INTO wallet_entries (wallet_transaction_id, user_id, currency, amount)
SELECT id, user_id, 'gold', -50 FROM wallet_transactions WHERE idempotency_id = 'v16-spend-1';

INSERT INTO audit_log (at, subject, subject_id, event, cause, detail) VALUES
    (1795900005000, 'transaction', '16001', 'credited', 'submission by v16-max',
        'to v16-max gold+60 via order a1600000-0000-4000-8000-000000016001'),
    (1795900005000, 'order', 'a1600000-0000-4000-8000-000000016001', 'delivered', 'submission by v16-max',
        'transaction 16001'),
    (1795900100000, 'wallet', 'v16-spend-1', 'spent', 'admin', 'v16-max gold-50: a shield'),
    (1795900300000, 'transaction', '16001', 'revoked', 'notification b1600000-0000-4000-8000-000000016001',
        'from v16-max gold-60 (refund: 100.000% of the purchase revoked)');

INSERT INTO outbox (idempotency_key, webhook_id, topic, user_id, sequence, payload, created_at, dispatched_at,
    pruned_at) VALUES
    ('16001:credited', 'evt_5f18a7c2d4e6b8091a2b3c4d5e6f7081', 'transaction.credited', 'v16-max', 1,
        '{"data":{"cause":"client","environment":"Sandbox","grants":{"gold":60},"occurredAt":"2026-11-28T21:06:45.000Z","orderId":"a1600000-0000-4000-8000-000000016001","originalTransactionId":"16001","productId":"com.example.purser.gold60","quantity":1,"sequence":1,"transactionId":"16001","userId":"v16-max"},"timestamp":"2026-11-28T21:06:45.000Z","type":"transaction.credited"}',
        1795900005000, NULL, NULL),
    ('16001:revoke:1', 'evt_5f18a7c2d4e6b8091a2b3c4d5e6f7083', 'transaction.revoked', 'v16-max', 3,
        '{"data":{"environment":"Sandbox","grants":{"gold":-60},"occurredAt":"2026-11-28T21:11:40.000Z","orderId":"a1600000-0000-4000-8000-000000016001","originalTransactionId":"16001","productId":"com.example.purser.gold60","quantity":1,"revocationPercentage":100000,"sequence":3,"share":1,"transactionId":"16001","userId":"v16-max"},"timestamp":"2026-11-28T21:11:40.000Z","type":"transaction.revoked"}',
        1795900300000, NULL, NULL);

INSERT INTO outbox (idempotency_key, webhook_id, topic, user_id, sequence, payload, created_at, dispatched_at,
    pruned_at)
SELECT 'wallet:' || id, 'evt_5f18a7c2d4e6b8091a2b3c4d5e6f7082', 'wallet.changed', user_id, 2,
    '{"data":{"amounts":{"gold":-50},"balances":{"gold":10},"cause":"admin","id":"v16-spend-1","occurredAt":"2026-11-28T21:08:20.000Z","reason":"a shield","sequence":2,"userId":"v16-max"},"timestamp":"2026-11-28T21:08:20.000Z","type":"wallet.changed"}',
    created_at, NULL, NULL
FROM wallet_transactions WHERE idempotency_id = 'v16-spend-1';

-- postgres only
INSERT INTO webhook_sequences (user_id, last) VALUES ('v16-max', 3);
