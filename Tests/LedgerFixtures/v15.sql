-- Rows as schema 15's releases (migrations 14 and 15 came together; 3bca248 the last of them) wrote them: admin API
-- keys (migration 14: one for keys, one limited to an app with an expiry, one revoked, each only by its secret's
-- hash, with its audit records), the console's operators with their roles per app, limits, generations and a failed
-- sign-in, and goodwill credits (migration 15: one a support operator gave alone, one approved by a second operator,
-- one declined, one that still waits), beside a credit and a spend by a key. A given credit is a wallet deposit with
-- the id goodwill-<the form's UUID>; the requests' decisions are audit records under that id.
-- schema: sqlite 15, postgres 15
--
-- expect balance v15-kim gold 65
-- expect balance v15-kim gems 80
-- expect state 15001 credited
-- expect audit 15001 credited
-- expect history v15-kim credit:15001 deposit:goodwill-C1500000-0000-4000-8000-000000015001 deposit:goodwill-C1500000-0000-4000-8000-000000015002 spend:v15-spend-1
-- expect delivery evt_15001_credited https://game.example/purser delivered
-- expect event evt_wallet_6 wallet.changed v15-kim 2 gold=25 support by v15-bo
-- expect event evt_wallet_7 wallet.changed v15-kim 3 gems=80 support by v15-bo, approved by v15-ada
-- expect event evt_wallet_8 wallet.changed v15-kim 4 gold=-20 admin by key:v15-backend
-- expect audit goodwill-C1500000-0000-4000-8000-000000015001 deposited
-- expect audit goodwill-C1500000-0000-4000-8000-000000015002 grant_requested grant_approved deposited
-- expect audit goodwill-C1500000-0000-4000-8000-000000015003 grant_requested grant_declined
-- expect audit goodwill-C1500000-0000-4000-8000-000000015004 grant_requested
-- expect audit v15-spend-1 spent
-- expect grant C1500000-0000-4000-8000-000000015001 granted
-- expect grant C1500000-0000-4000-8000-000000015002 approved
-- expect grant C1500000-0000-4000-8000-000000015003 declined
-- expect grant C1500000-0000-4000-8000-000000015004 pending
-- expect given com.example.purser v15-bo gold 1795801200000 25
-- expect operator v15-ada com.example.purser=admin,com.example.racers=admin 1 enabled
-- expect operator v15-bo com.example.purser=support 2 enabled 50/200
-- expect operator v15-cy com.example.purser=viewer 2 disabled
-- expect failures operator:v15-cy 1795800360000 1
-- expect audit v15-ada added
-- expect audit v15-bo added limits_changed password_changed
-- expect audit v15-cy added disabled
-- expect key v15-keys active keys:admin,ledger:read all
-- expect key v15-backend active wallet:write,ledger:read com.example.purser
-- expect key v15-desk revoked ledger:read com.example.purser
-- expect audit v15-keys created
-- expect audit v15-backend created
-- expect audit v15-desk created revoked

-- Operators: v15-ada from the configuration (a studio of two apps: the configured role in each), v15-bo and v15-cy
-- added by her in the console; bo got limits of his own and a new password (generation 2), cy was disabled
-- (generation 2). Password hashes are scrypt's PHC strings.
INSERT INTO console_operators (name, password_hash, disabled, generation, grant_limit, grant_limit_per_day,
    created_at, updated_at) VALUES
    ('v15-ada', '$scrypt$ln=15,r=8,p=1$EBESExQVFhcYGRobHB0eHw$YqJrsHLiWjDqc53/HANXny6gp2mFT96WyBTy8JB7Tt4', 0, 1,
        NULL, NULL, 1795800000000, 1795800000000),
    ('v15-bo', '$scrypt$ln=15,r=8,p=1$MDEyMzQ1Njc4OTo7PD0+Pw$K2T4QvL+TG798G2x3vjW2QWRiElyGV2dUmfDIN9egHI', 0, 2,
        50, 200, 1795800060000, 1795800240000),
    ('v15-cy', '$scrypt$ln=15,r=8,p=1$QEFCQ0RFRkdISUpLTE1OTw$cpElUN3hwpQ48J8C9kNuOuhfWvhr+pDPLYpz7iXf3yg', 1, 2,
        NULL, NULL, 1795800120000, 1795800300000);

INSERT INTO console_operator_roles (operator_name, app, role) VALUES
    ('v15-ada', 'com.example.purser', 'admin'),
    ('v15-ada', 'com.example.racers', 'admin'),
    ('v15-bo', 'com.example.purser', 'support'),
    ('v15-cy', 'com.example.purser', 'viewer');

-- A failed sign-in (the disabled v15-cy's), counted under the name and under the address.
INSERT INTO console_sign_in_failures (key, at) VALUES
    ('operator:v15-cy', 1795800360000),
    ('address:203.0.113.7', 1795800360000);

-- Keys: v15-keys and v15-backend made with `purser keys create --operator ops`, v15-desk made and then revoked over
-- HTTP with v15-keys. Scopes and apps are space-separated; apps NULL is every app.
INSERT INTO api_keys (name, secret_hash, scopes, apps, created_at, created_by, expires_at, revoked_at) VALUES
    ('v15-keys', '430f5f7e4461f3364bca1fa95bd98641e96d917e47499ddb67ec26ae93455b80', 'keys:admin ledger:read', NULL,
        1795800400000, 'ops', NULL, NULL),
    ('v15-backend', '897ffc5db4334f03ede53838417df34f633bd0137180eb69fb25347c9c43813f', 'wallet:write ledger:read',
        'com.example.purser', 1795800460000, 'ops', 1827336460000, NULL),
    ('v15-desk', '0ce09f30d566c86469973de8f959912d591f3a89ae14e7ef51ebe9f9356cd282', 'ledger:read',
        'com.example.purser', 1795800520000, 'key:v15-keys', NULL, 1795800580000);

INSERT INTO orders (id, user_id, product_id, quantity, state, transaction_id, created_at, updated_at) VALUES
    ('a1500000-0000-4000-8000-000000015001', 'v15-kim', 'com.example.purser.gold60', 1, 'delivered', '15001',
        1795801000000, 1795801005000);

INSERT INTO apple_transactions (transaction_id, original_transaction_id, bundle_id, product_id, type, quantity,
    purchase_date, app_account_token, environment, revocation_date, state, owner_id, order_id, rejection_code,
    rejection_message, recorded_at, updated_at, revocation_type, revocation_percentage, app_transaction_id,
    credited_by, finished_at_apple, app_account_token_for_apple) VALUES
    ('15001', '15001', 'com.example.purser', 'com.example.purser.gold60', 'Consumable', 1, 1795801004000,
        'a1500000-0000-4000-8000-000000015001', 'Sandbox', NULL, 'credited', 'v15-kim',
        'a1500000-0000-4000-8000-000000015001', NULL, NULL, 1795801005000, 1795801005000, NULL, NULL, 'app-tx-15',
        'client', 1795801060000, NULL);

INSERT INTO grants (transaction_id, user_id, currency, amount, kind, created_at) VALUES
    ('15001', 'v15-kim', 'gold', 60, 'credit', 1795801005000);

INSERT INTO outbox (idempotency_key, webhook_id, topic, user_id, sequence, payload, created_at, dispatched_at,
    pruned_at) VALUES
    ('15001:credited', 'evt_15001_credited', 'transaction.credited', 'v15-kim', 1,
        '{"data":{"cause":"client","environment":"Sandbox","grants":{"gold":60},"occurredAt":"2026-11-27T17:36:45.000Z","orderId":"a1500000-0000-4000-8000-000000015001","originalTransactionId":"15001","productId":"com.example.purser.gold60","quantity":1,"sequence":1,"transactionId":"15001","userId":"v15-kim"},"timestamp":"2026-11-27T17:36:45.000Z","type":"transaction.credited"}',
        1795801005000, 1795801005100, NULL);

INSERT INTO webhook_deliveries (event_id, endpoint, status, attempts, next_attempt_at, claimed_by, claimed_until,
    last_attempt_at, last_result, delivered_at, created_at)
SELECT id, 'https://game.example/purser', 'delivered', 1, 1795801006000, NULL, NULL, 1795801006000, 'HTTP 204',
    1795801006000, 1795801005100 FROM outbox WHERE webhook_id = 'evt_15001_credited';

-- Goodwill from v15-kim's page, each under the form's key (an upper-case UUID): 25 gold within v15-bo's own limits
-- (granted and credited at once), 80 gems above his 50 per grant (pending, approved by v15-ada, then credited), 500
-- gold declined by her, and 150 gold still waiting.
INSERT INTO console_grants (id, app, user_id, currency, amount, reason, requested_by, requested_at, state, decided_by,
    decided_at) VALUES
    ('C1500000-0000-4000-8000-000000015001', 'com.example.purser', 'v15-kim', 'gold', 25, 'sorry for the outage',
        'v15-bo', 1795801200000, 'granted', NULL, NULL),
    ('C1500000-0000-4000-8000-000000015002', 'com.example.purser', 'v15-kim', 'gems', 80, 'lost a season pass',
        'v15-bo', 1795801300000, 'approved', 'v15-ada', 1795801400000),
    ('C1500000-0000-4000-8000-000000015003', 'com.example.purser', 'v15-kim', 'gold', 500, 'asked twice',
        'v15-bo', 1795801500000, 'declined', 'v15-ada', 1795801560000),
    ('C1500000-0000-4000-8000-000000015004', 'com.example.purser', 'v15-kim', 'gold', 150,
        'compensation for a lost match', 'v15-bo', 1795801600000, 'pending', NULL, NULL);

-- The two credits and a spend by the key v15-backend. Their row ids are given (6, 7, 8: versions 10 and 11's five
-- come first), so their events are evt_wallet_6 to _8 whether or not the earlier layers were loaded.
INSERT INTO wallet_transactions (id, idempotency_id, user_id, amounts, reason, metadata, cause, balances, created_at)
VALUES
    (6, 'goodwill-C1500000-0000-4000-8000-000000015001', 'v15-kim', '{"gold":25}', 'sorry for the outage', NULL,
        'support by v15-bo', '{"gold":85}', 1795801200020),
    (7, 'goodwill-C1500000-0000-4000-8000-000000015002', 'v15-kim', '{"gems":80}', 'lost a season pass', NULL,
        'support by v15-bo, approved by v15-ada', '{"gems":80}', 1795801400020),
    (8, 'v15-spend-1', 'v15-kim', '{"gold":-20}', 'a sword', '{"item":"sword-3"}', 'admin by key:v15-backend',
        '{"gold":65}', 1795801700000);

INSERT INTO wallet_entries (wallet_transaction_id, user_id, currency, amount)
SELECT id, user_id, 'gold', 25 FROM wallet_transactions
WHERE idempotency_id = 'goodwill-C1500000-0000-4000-8000-000000015001';
INSERT INTO wallet_entries (wallet_transaction_id, user_id, currency, amount)
SELECT id, user_id, 'gems', 80 FROM wallet_transactions
WHERE idempotency_id = 'goodwill-C1500000-0000-4000-8000-000000015002';
INSERT INTO wallet_entries (wallet_transaction_id, user_id, currency, amount)
SELECT id, user_id, 'gold', -20 FROM wallet_transactions WHERE idempotency_id = 'v15-spend-1';

INSERT INTO outbox (idempotency_key, webhook_id, topic, user_id, sequence, payload, created_at, dispatched_at)
SELECT 'wallet:' || id, 'evt_wallet_' || id, 'wallet.changed', user_id, 2,
    '{"data":{"amounts":{"gold":25},"balances":{"gold":85},"cause":"support by v15-bo","id":"goodwill-C1500000-0000-4000-8000-000000015001","occurredAt":"2026-11-27T17:40:00.020Z","reason":"sorry for the outage","sequence":2,"userId":"v15-kim"},"timestamp":"2026-11-27T17:40:00.020Z","type":"wallet.changed"}',
    created_at, NULL
FROM wallet_transactions WHERE idempotency_id = 'goodwill-C1500000-0000-4000-8000-000000015001';
INSERT INTO outbox (idempotency_key, webhook_id, topic, user_id, sequence, payload, created_at, dispatched_at)
SELECT 'wallet:' || id, 'evt_wallet_' || id, 'wallet.changed', user_id, 3,
    '{"data":{"amounts":{"gems":80},"balances":{"gems":80},"cause":"support by v15-bo, approved by v15-ada","id":"goodwill-C1500000-0000-4000-8000-000000015002","occurredAt":"2026-11-27T17:43:20.020Z","reason":"lost a season pass","sequence":3,"userId":"v15-kim"},"timestamp":"2026-11-27T17:43:20.020Z","type":"wallet.changed"}',
    created_at, NULL
FROM wallet_transactions WHERE idempotency_id = 'goodwill-C1500000-0000-4000-8000-000000015002';
INSERT INTO outbox (idempotency_key, webhook_id, topic, user_id, sequence, payload, created_at, dispatched_at)
SELECT 'wallet:' || id, 'evt_wallet_' || id, 'wallet.changed', user_id, 4,
    '{"data":{"amounts":{"gold":-20},"balances":{"gold":65},"cause":"admin by key:v15-backend","id":"v15-spend-1","occurredAt":"2026-11-27T17:48:20.000Z","reason":"a sword","sequence":4,"userId":"v15-kim"},"timestamp":"2026-11-27T17:48:20.000Z","type":"wallet.changed"}',
    created_at, NULL
FROM wallet_transactions WHERE idempotency_id = 'v15-spend-1';

-- Operators' and keys' records (subjects operator and api_key, cause `by ACTOR` for a key), the credit's, and the
-- goodwill's: a request and its decision under goodwill-<id> (subject wallet), beside the deposit's own record.
INSERT INTO audit_log (at, subject, subject_id, event, cause, detail) VALUES
    (1795800000000, 'operator', 'v15-ada', 'added', 'configuration',
        'com.example.purser: admin, com.example.racers: admin'),
    (1795800060000, 'operator', 'v15-bo', 'added', 'console by v15-ada', 'com.example.purser: support'),
    (1795800120000, 'operator', 'v15-cy', 'added', 'console by v15-ada', 'com.example.purser: viewer'),
    (1795800180000, 'operator', 'v15-bo', 'limits_changed', 'console by v15-ada', 'per grant 50, per day 200'),
    (1795800240000, 'operator', 'v15-bo', 'password_changed', 'console by v15-ada', ''),
    (1795800300000, 'operator', 'v15-cy', 'disabled', 'console by v15-ada', ''),
    (1795800400000, 'api_key', 'v15-keys', 'created', 'by ops', 'scopes keys:admin ledger:read; apps all'),
    (1795800460000, 'api_key', 'v15-backend', 'created', 'by ops',
        'scopes wallet:write ledger:read; apps com.example.purser; expires 2027-11-27T17:27:40Z'),
    (1795800520000, 'api_key', 'v15-desk', 'created', 'by key:v15-keys', 'scopes ledger:read; apps com.example.purser'),
    (1795800580000, 'api_key', 'v15-desk', 'revoked', 'by key:v15-keys', 'scopes ledger:read; apps com.example.purser'),
    (1795801005000, 'transaction', '15001', 'credited', 'submission by v15-kim',
        'to v15-kim gold+60 via order a1500000-0000-4000-8000-000000015001'),
    (1795801005000, 'order', 'a1500000-0000-4000-8000-000000015001', 'delivered', 'submission by v15-kim',
        'transaction 15001'),
    (1795801200020, 'wallet', 'goodwill-C1500000-0000-4000-8000-000000015001', 'deposited', 'support by v15-bo',
        'v15-kim gold+25: sorry for the outage'),
    (1795801300000, 'wallet', 'goodwill-C1500000-0000-4000-8000-000000015002', 'grant_requested', 'support by v15-bo',
        'v15-kim gems 80: lost a season pass'),
    (1795801400000, 'wallet', 'goodwill-C1500000-0000-4000-8000-000000015002', 'grant_approved',
        'support by v15-bo, approved by v15-ada', 'v15-kim gems 80: lost a season pass'),
    (1795801400020, 'wallet', 'goodwill-C1500000-0000-4000-8000-000000015002', 'deposited',
        'support by v15-bo, approved by v15-ada', 'v15-kim gems+80: lost a season pass'),
    (1795801500000, 'wallet', 'goodwill-C1500000-0000-4000-8000-000000015003', 'grant_requested', 'support by v15-bo',
        'v15-kim gold 500: asked twice'),
    (1795801560000, 'wallet', 'goodwill-C1500000-0000-4000-8000-000000015003', 'grant_declined',
        'support by v15-bo, declined by v15-ada', 'v15-kim gold 500: asked twice'),
    (1795801600000, 'wallet', 'goodwill-C1500000-0000-4000-8000-000000015004', 'grant_requested', 'support by v15-bo',
        'v15-kim gold 150: compensation for a lost match'),
    (1795801700000, 'wallet', 'v15-spend-1', 'spent', 'admin by key:v15-backend', 'v15-kim gold-20: a sword');

-- postgres only
INSERT INTO webhook_sequences (user_id, last) VALUES ('v15-kim', 4);

-- postgres only
SELECT setval('wallet_transactions_id_seq', (SELECT MAX(id) FROM wallet_transactions));
