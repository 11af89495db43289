-- Rows as schema 11's releases (1fa3a13 .. today) wrote them: holds reserving part of a balance, one open, one
-- captured in part (its capture a wallet transaction with id hold:<id>, a wallet.changed event and an audit record
-- of each), one voided, one expired by the sweep.
-- schema: sqlite 11, postgres 11
--
-- expect balance v11-max gold 95
-- expect held v11-max 1795663900000 gold=20
-- expect hold h-open open
-- expect hold h-cap captured
-- expect hold h-void voided
-- expect hold h-exp expired
-- expect audit h-cap held captured
-- expect audit h-void held voided
-- expect audit h-exp held expired
-- expect audit hold:h-cap spent
-- expect history v11-max credit:11001 spend:hold:h-cap
-- expect delivery evt_11001_credited https://game.example/purser delivered
-- expect event evt_wallet_5 wallet.changed v11-max 2 gold=-25 admin

INSERT INTO orders (id, user_id, product_id, quantity, state, transaction_id, created_at, updated_at) VALUES
    ('a1100000-0000-4000-8000-000000011001', 'v11-max', 'com.example.purser.gold120', 1, 'delivered', '11001',
        1795663500000, 1795663505000);

INSERT INTO apple_transactions (transaction_id, original_transaction_id, bundle_id, product_id, type, quantity,
    purchase_date, app_account_token, environment, revocation_date, state, owner_id, order_id, rejection_code,
    rejection_message, recorded_at, updated_at, revocation_type, revocation_percentage, app_transaction_id,
    credited_by, finished_at_apple, app_account_token_for_apple) VALUES
    ('11001', '11001', 'com.example.purser', 'com.example.purser.gold120', 'Consumable', 1, 1795663504000,
        'a1100000-0000-4000-8000-000000011001', 'Sandbox', NULL, 'credited', 'v11-max',
        'a1100000-0000-4000-8000-000000011001', NULL, NULL, 1795663505000, 1795663505000, NULL, NULL, 'app-tx-11',
        'client', 1795663560000, NULL);

INSERT INTO grants (transaction_id, user_id, currency, amount, kind, created_at) VALUES
    ('11001', 'v11-max', 'gold', 120, 'credit', 1795663505000);

INSERT INTO audit_log (at, subject, subject_id, event, cause, detail) VALUES
    (1795663505000, 'transaction', '11001', 'credited', 'submission by v11-max',
        'to v11-max gold+120 via order a1100000-0000-4000-8000-000000011001'),
    (1795663505000, 'order', 'a1100000-0000-4000-8000-000000011001', 'delivered', 'submission by v11-max',
        'transaction 11001');

INSERT INTO outbox (idempotency_key, webhook_id, topic, user_id, sequence, payload, created_at, dispatched_at) VALUES
    ('11001:credited', 'evt_11001_credited', 'transaction.credited', 'v11-max', 1,
        '{"data":{"cause":"client","environment":"Sandbox","grants":{"gold":120},"occurredAt":"2026-11-26T03:25:05.000Z","orderId":"a1100000-0000-4000-8000-000000011001","originalTransactionId":"11001","productId":"com.example.purser.gold120","quantity":1,"sequence":1,"transactionId":"11001","userId":"v11-max"},"timestamp":"2026-11-26T03:25:05.000Z","type":"transaction.credited"}',
        1795663505000, 1795663505100);

INSERT INTO webhook_deliveries (event_id, endpoint, status, attempts, next_attempt_at, claimed_by, claimed_until,
    last_attempt_at, last_result, delivered_at, created_at)
SELECT id, 'https://game.example/purser', 'delivered', 1, 1795663506000, NULL, NULL, 1795663506000, 'HTTP 204',
    1795663506000, 1795663505100 FROM outbox WHERE webhook_id = 'evt_11001_credited';

INSERT INTO wallet_holds (idempotency_id, user_id, amounts, reason, expires_in_seconds, cause, state, captured,
    expires_at, created_at, resolved_at) VALUES
    ('h-open', 'v11-max', '{"gold":20}', 'match entry', 600, 'admin', 'open', NULL, 1795664110000, 1795663510000,
        NULL),
    ('h-cap', 'v11-max', '{"gold":30}', 'tournament buy-in', 600, 'admin', 'captured', '{"gold":25}',
        1795664120000, 1795663520000, 1795663600000),
    ('h-void', 'v11-max', '{"gold":10}', 'item reservation', 600, 'admin', 'voided', NULL, 1795664130000,
        1795663530000, 1795663650000),
    ('h-exp', 'v11-max', '{"gold":5}', 'short hold', 60, 'admin', 'expired', NULL, 1795663600000, 1795663540000,
        1795663700000);

-- The capture: a spend of what was taken, with the id hold:<hold id>, in the same database transaction. Its row id
-- is given (5: version 10's four come first), so its event is evt_wallet_5 whether or not the earlier layers were
-- loaded (the previous-release tests load this layer alone).
INSERT INTO wallet_transactions (id, idempotency_id, user_id, amounts, reason, metadata, cause, balances, created_at)
VALUES (5, 'hold:h-cap', 'v11-max', '{"gold":-25}', 'tournament buy-in', NULL, 'admin', '{"gold":95}', 1795663600000);
INSERT INTO wallet_entries (wallet_transaction_id, user_id, currency, amount)
SELECT id, user_id, 'gold', -25 FROM wallet_transactions WHERE idempotency_id = 'hold:h-cap';
INSERT INTO outbox (idempotency_key, webhook_id, topic, user_id, sequence, payload, created_at, dispatched_at)
SELECT 'wallet:' || id, 'evt_wallet_' || id, 'wallet.changed', user_id, 2,
    '{"data":{"amounts":{"gold":-25},"balances":{"gold":95},"cause":"admin","id":"hold:h-cap","occurredAt":"2026-11-26T03:26:40.000Z","reason":"tournament buy-in","sequence":2,"userId":"v11-max"},"timestamp":"2026-11-26T03:26:40.000Z","type":"wallet.changed"}',
    created_at, NULL
FROM wallet_transactions WHERE idempotency_id = 'hold:h-cap';

-- postgres only
INSERT INTO webhook_sequences (user_id, last) VALUES ('v11-max', 2);

-- postgres only
SELECT setval('wallet_transactions_id_seq', (SELECT MAX(id) FROM wallet_transactions));

INSERT INTO audit_log (at, subject, subject_id, event, cause, detail) VALUES
    (1795663510000, 'hold', 'h-open', 'held', 'admin', 'v11-max gold 20: match entry'),
    (1795663520000, 'hold', 'h-cap', 'held', 'admin', 'v11-max gold 30: tournament buy-in'),
    (1795663530000, 'hold', 'h-void', 'held', 'admin', 'v11-max gold 10: item reservation'),
    (1795663540000, 'hold', 'h-exp', 'held', 'admin', 'v11-max gold 5: short hold'),
    (1795663600000, 'wallet', 'hold:h-cap', 'spent', 'admin', 'v11-max gold-25: tournament buy-in'),
    (1795663600000, 'hold', 'h-cap', 'captured', 'admin', 'v11-max gold 25: tournament buy-in'),
    (1795663650000, 'hold', 'h-void', 'voided', 'admin', 'v11-max gold 10: item reservation'),
    (1795663700000, 'hold', 'h-exp', 'expired', 'expiry', 'v11-max gold 5: short hold');
