-- Rows as schema 10's releases (f0bf7d5 .. e0af0f7) wrote them: wallet transactions applied once by the caller's id
-- (a deposit with metadata, a spend, an adjustment that spends one currency and deposits another, support's goodwill
-- credit), each with its entries, which balances add to the grants, a wallet.changed event in the user's sequence
-- and an audit record (subject wallet).
-- schema: sqlite 10, postgres 10
--
-- expect balance v10-lou gold 125
-- expect balance v10-lou gems 10
-- expect state 10001 credited
-- expect audit dep-1 deposited
-- expect audit spend-1 spent
-- expect audit adj-1 adjusted
-- expect audit goodwill-1 deposited
-- expect purchases v10-lou 10001
-- expect history v10-lou credit:10001 deposit:dep-1 spend:spend-1 adjust:adj-1 deposit:goodwill-1
-- expect delivery evt_10001_credited https://game.example/purser delivered
-- expect delivery evt_wallet_1 https://game.example/purser delivered
-- expect event evt_wallet_2 wallet.changed v10-lou 3 gold=-30 admin
-- expect event evt_wallet_3 wallet.changed v10-lou 4 gems=10,gold=-40 admin
-- expect event evt_wallet_4 wallet.changed v10-lou 5 gold=25 support by ops

INSERT INTO orders (id, user_id, product_id, quantity, state, transaction_id, created_at, updated_at) VALUES
    ('a1000000-0000-4000-8000-000000010001', 'v10-lou', 'com.example.purser.gold120', 1, 'delivered', '10001',
        1795660800000, 1795660805000);

INSERT INTO apple_transactions (transaction_id, original_transaction_id, bundle_id, product_id, type, quantity,
    purchase_date, app_account_token, environment, revocation_date, state, owner_id, order_id, rejection_code,
    rejection_message, recorded_at, updated_at, revocation_type, revocation_percentage, app_transaction_id,
    credited_by, finished_at_apple, app_account_token_for_apple) VALUES
    ('10001', '10001', 'com.example.purser', 'com.example.purser.gold120', 'Consumable', 1, 1795660804000,
        'a1000000-0000-4000-8000-000000010001', 'Sandbox', NULL, 'credited', 'v10-lou',
        'a1000000-0000-4000-8000-000000010001', NULL, NULL, 1795660805000, 1795660805000, NULL, NULL, 'app-tx-10',
        'client', 1795660860000, NULL);

INSERT INTO grants (transaction_id, user_id, currency, amount, kind, created_at) VALUES
    ('10001', 'v10-lou', 'gold', 120, 'credit', 1795660805000);

INSERT INTO audit_log (at, subject, subject_id, event, cause, detail) VALUES
    (1795660805000, 'transaction', '10001', 'credited', 'submission by v10-lou',
        'to v10-lou gold+120 via order a1000000-0000-4000-8000-000000010001'),
    (1795660805000, 'order', 'a1000000-0000-4000-8000-000000010001', 'delivered', 'submission by v10-lou',
        'transaction 10001');

INSERT INTO outbox (idempotency_key, webhook_id, topic, user_id, sequence, payload, created_at, dispatched_at) VALUES
    ('10001:credited', 'evt_10001_credited', 'transaction.credited', 'v10-lou', 1,
        '{"data":{"cause":"client","environment":"Sandbox","grants":{"gold":120},"occurredAt":"2026-11-26T02:40:05.000Z","orderId":"a1000000-0000-4000-8000-000000010001","originalTransactionId":"10001","productId":"com.example.purser.gold120","quantity":1,"sequence":1,"transactionId":"10001","userId":"v10-lou"},"timestamp":"2026-11-26T02:40:05.000Z","type":"transaction.credited"}',
        1795660805000, 1795660805100);

-- Amounts and balances as canonical JSON (sorted keys); balances only of the request's currencies, after it.
INSERT INTO wallet_transactions (idempotency_id, user_id, amounts, reason, metadata, cause, balances, created_at)
VALUES
    ('dep-1', 'v10-lou', '{"gold":50}', 'tournament prize', '{"match":"m-17"}', 'admin', '{"gold":170}',
        1795660900000),
    ('spend-1', 'v10-lou', '{"gold":-30}', 'a sword', NULL, 'admin', '{"gold":140}', 1795661000000),
    ('adj-1', 'v10-lou', '{"gems":10,"gold":-40}', 'exchange', NULL, 'admin', '{"gems":10,"gold":100}',
        1795661100000),
    ('goodwill-1', 'v10-lou', '{"gold":25}', 'sorry for the outage', NULL, 'support by ops', '{"gold":125}',
        1795661200000);

INSERT INTO wallet_entries (wallet_transaction_id, user_id, currency, amount)
SELECT id, user_id, 'gold', 50 FROM wallet_transactions WHERE idempotency_id = 'dep-1';
INSERT INTO wallet_entries (wallet_transaction_id, user_id, currency, amount)
SELECT id, user_id, 'gold', -30 FROM wallet_transactions WHERE idempotency_id = 'spend-1';
INSERT INTO wallet_entries (wallet_transaction_id, user_id, currency, amount)
SELECT id, user_id, 'gems', 10 FROM wallet_transactions WHERE idempotency_id = 'adj-1';
INSERT INTO wallet_entries (wallet_transaction_id, user_id, currency, amount)
SELECT id, user_id, 'gold', -40 FROM wallet_transactions WHERE idempotency_id = 'adj-1';
INSERT INTO wallet_entries (wallet_transaction_id, user_id, currency, amount)
SELECT id, user_id, 'gold', 25 FROM wallet_transactions WHERE idempotency_id = 'goodwill-1';

-- A wallet transaction's event is keyed by its row: wallet:<id>, webhook-id evt_wallet_<id>.
INSERT INTO outbox (idempotency_key, webhook_id, topic, user_id, sequence, payload, created_at, dispatched_at)
SELECT 'wallet:' || id, 'evt_wallet_' || id, 'wallet.changed', user_id, 2,
    '{"data":{"amounts":{"gold":50},"balances":{"gold":170},"cause":"admin","id":"dep-1","occurredAt":"2026-11-26T02:41:40.000Z","reason":"tournament prize","sequence":2,"userId":"v10-lou"},"timestamp":"2026-11-26T02:41:40.000Z","type":"wallet.changed"}',
    created_at, created_at + 100
FROM wallet_transactions WHERE idempotency_id = 'dep-1';
INSERT INTO outbox (idempotency_key, webhook_id, topic, user_id, sequence, payload, created_at, dispatched_at)
SELECT 'wallet:' || id, 'evt_wallet_' || id, 'wallet.changed', user_id, 3,
    '{"data":{"amounts":{"gold":-30},"balances":{"gold":140},"cause":"admin","id":"spend-1","occurredAt":"2026-11-26T02:43:20.000Z","reason":"a sword","sequence":3,"userId":"v10-lou"},"timestamp":"2026-11-26T02:43:20.000Z","type":"wallet.changed"}',
    created_at, NULL
FROM wallet_transactions WHERE idempotency_id = 'spend-1';
INSERT INTO outbox (idempotency_key, webhook_id, topic, user_id, sequence, payload, created_at, dispatched_at)
SELECT 'wallet:' || id, 'evt_wallet_' || id, 'wallet.changed', user_id, 4,
    '{"data":{"amounts":{"gems":10,"gold":-40},"balances":{"gems":10,"gold":100},"cause":"admin","id":"adj-1","occurredAt":"2026-11-26T02:45:00.000Z","reason":"exchange","sequence":4,"userId":"v10-lou"},"timestamp":"2026-11-26T02:45:00.000Z","type":"wallet.changed"}',
    created_at, NULL
FROM wallet_transactions WHERE idempotency_id = 'adj-1';
INSERT INTO outbox (idempotency_key, webhook_id, topic, user_id, sequence, payload, created_at, dispatched_at)
SELECT 'wallet:' || id, 'evt_wallet_' || id, 'wallet.changed', user_id, 5,
    '{"data":{"amounts":{"gold":25},"balances":{"gold":125},"cause":"support by ops","id":"goodwill-1","occurredAt":"2026-11-26T02:46:40.000Z","reason":"sorry for the outage","sequence":5,"userId":"v10-lou"},"timestamp":"2026-11-26T02:46:40.000Z","type":"wallet.changed"}',
    created_at, NULL
FROM wallet_transactions WHERE idempotency_id = 'goodwill-1';

-- postgres only
INSERT INTO webhook_sequences (user_id, last) VALUES ('v10-lou', 5);

INSERT INTO webhook_deliveries (event_id, endpoint, status, attempts, next_attempt_at, claimed_by, claimed_until,
    last_attempt_at, last_result, delivered_at, created_at)
SELECT id, 'https://game.example/purser', 'delivered', 1, created_at + 1000, NULL, NULL, created_at + 1000,
    'HTTP 204', created_at + 1000, created_at + 100
FROM outbox WHERE idempotency_key = '10001:credited' OR webhook_id = 'evt_wallet_1';

INSERT INTO audit_log (at, subject, subject_id, event, cause, detail) VALUES
    (1795660900000, 'wallet', 'dep-1', 'deposited', 'admin', 'v10-lou gold+50: tournament prize'),
    (1795661000000, 'wallet', 'spend-1', 'spent', 'admin', 'v10-lou gold-30: a sword'),
    (1795661100000, 'wallet', 'adj-1', 'adjusted', 'admin', 'v10-lou gems+10 gold-40: exchange'),
    (1795661200000, 'wallet', 'goodwill-1', 'deposited', 'support by ops', 'v10-lou gold+25: sorry for the outage');
