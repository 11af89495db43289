-- Every statement of the postgres ledger store at 922c14d (2026-12-07),
-- printed by scripts/release-statements.py 922c14d postgres.
-- schema: sqlite 19, postgres 19

-- LedgerBalances.swift
INSERT INTO balances (user_id, currency, high, low)
SELECT user_id, currency, $1, $2 FROM (
    SELECT user_id, currency, amount FROM grants
    UNION ALL SELECT user_id, currency, amount FROM wallet_entries) AS e
GROUP BY user_id, currency;

-- LedgerHealth.swift
SELECT (SELECT COUNT(*) FROM apple_transactions WHERE state = 'unbound') AS unbound,
       (SELECT MIN(recorded_at) FROM apple_transactions WHERE state = 'unbound') AS unbound_oldest,
       (SELECT COUNT(*) FROM orders WHERE state = 'created') AS waiting,
       (SELECT MIN(created_at) FROM orders WHERE state = 'created') AS waiting_oldest,
       (SELECT COUNT(*) FROM outbox WHERE dispatched_at IS NULL) AS undispatched,
       (SELECT MIN(created_at) FROM outbox WHERE dispatched_at IS NULL) AS undispatched_oldest,
       (SELECT COUNT(*) FROM webhook_deliveries WHERE status IN ('pending', 'failed')) AS undelivered,
       (SELECT MIN(o.created_at) FROM webhook_deliveries d JOIN outbox o ON o.id = d.event_id
        WHERE d.status IN ('pending', 'failed')) AS undelivered_oldest,
       (SELECT COUNT(*) FROM webhook_deliveries WHERE status = 'dead') AS dead,
       (SELECT COUNT(*) FROM wallet_holds WHERE state = 'open') AS holds,
       (SELECT MIN(created_at) FROM wallet_holds WHERE state = 'open') AS holds_oldest;

-- LedgerIntegrity+Inventory.swift
SELECT user_id, currency, CAST(SUM((amount) >> 32) AS BIGINT) AS total_high, CAST(SUM((amount) & 4294967295) AS BIGINT) AS total_low FROM (
    SELECT user_id, currency, amount FROM grants
    UNION ALL SELECT user_id, currency, amount FROM wallet_entries) AS e
GROUP BY user_id, currency;

-- LedgerIntegrity+Inventory.swift
SELECT CAST(COALESCE(MAX(version), 0) AS BIGINT) AS version FROM schema_migrations;

-- LedgerIntegrity.swift
SELECT a.transaction_id AS subject FROM apple_transactions a WHERE a.state = 'credited'
AND NOT EXISTS (SELECT 1 FROM grants g WHERE g.transaction_id = a.transaction_id AND g.kind = 'credit');

-- LedgerIntegrity.swift
SELECT a.transaction_id AS subject FROM apple_transactions a WHERE a.state = 'credited'
AND NOT EXISTS (SELECT 1 FROM outbox o WHERE o.idempotency_key = a.transaction_id || ':credited');

-- LedgerIntegrity.swift
SELECT a.transaction_id AS subject FROM apple_transactions a WHERE a.state = 'credited'
AND NOT EXISTS (SELECT 1 FROM audit_log l WHERE l.subject = 'transaction'
    AND l.subject_id = a.transaction_id AND l.event = 'credited');

-- LedgerIntegrity.swift
SELECT transaction_id AS subject FROM grants WHERE kind = 'credit'
GROUP BY transaction_id, currency HAVING COUNT(*) > 1;

-- LedgerIntegrity.swift
SELECT DISTINCT g.transaction_id AS subject FROM grants g
JOIN apple_transactions a ON a.transaction_id = g.transaction_id
WHERE g.kind = 'credit' AND (a.owner_id IS NULL OR g.user_id <> a.owner_id);

-- LedgerIntegrity.swift
SELECT DISTINCT g.transaction_id AS subject FROM grants g
LEFT JOIN apple_transactions a ON a.transaction_id = g.transaction_id
WHERE g.kind = 'credit' AND (a.transaction_id IS NULL OR a.state NOT IN ('credited', 'revoked'));

-- LedgerIntegrity.swift
SELECT o.id AS subject FROM orders o
LEFT JOIN apple_transactions a ON a.transaction_id = o.transaction_id
WHERE o.state = 'delivered' AND (a.transaction_id IS NULL OR a.state NOT IN ('credited', 'revoked')
    OR a.owner_id IS NULL OR a.owner_id <> o.user_id);

-- LedgerIntegrity.swift
SELECT w.idempotency_id AS subject FROM wallet_transactions w
WHERE NOT EXISTS (SELECT 1 FROM wallet_entries e WHERE e.wallet_transaction_id = w.id);

-- LedgerIntegrity.swift
SELECT w.idempotency_id AS subject FROM wallet_transactions w
WHERE NOT EXISTS (SELECT 1 FROM outbox o WHERE o.idempotency_key = 'wallet:' || w.id);

-- LedgerIntegrity.swift
SELECT DISTINCT w.idempotency_id AS subject FROM wallet_entries e
JOIN wallet_transactions w ON w.id = e.wallet_transaction_id WHERE e.user_id <> w.user_id;

-- LedgerIntegrity.swift
SELECT user_id || ' ' || currency AS subject FROM (
    SELECT user_id, currency, SUM(high) AS high, SUM(low) AS low FROM (
        SELECT user_id, currency, (amount) >> 32 AS high, (amount) & 4294967295 AS low FROM grants
        UNION ALL SELECT user_id, currency, (amount) >> 32, (amount) & 4294967295 FROM wallet_entries
        UNION ALL SELECT user_id, currency, -high, -low FROM balances) AS e
    GROUP BY user_id, currency) AS d
WHERE high <> 0 OR low <> 0;

-- LedgerIntegrity.swift
SELECT 'count' AS kind, 'credited' AS name, COUNT(*) AS amount FROM apple_transactions WHERE state = 'credited'
UNION ALL SELECT 'count', 'orders', COUNT(*) FROM orders
UNION ALL SELECT 'count', 'wallet', COUNT(*) FROM wallet_transactions
UNION ALL SELECT 'total_high', currency, $1 FROM (
    SELECT currency, amount FROM grants UNION ALL SELECT currency, amount FROM wallet_entries) AS e
GROUP BY currency
UNION ALL SELECT 'total_low', currency, $2 FROM (
    SELECT currency, amount FROM grants UNION ALL SELECT currency, amount FROM wallet_entries) AS e
GROUP BY currency;

-- LedgerRetention.swift
UPDATE outbox SET payload = '{}', pruned_at = $1 WHERE id IN (
    SELECT o.id FROM outbox o
    WHERE o.pruned_at IS NULL AND o.dispatched_at IS NOT NULL AND o.created_at < $2
      AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d
                      WHERE d.event_id = o.id AND d.status <> 'delivered')
    ORDER BY o.id LIMIT $3)
RETURNING 1;

-- LedgerRetention.swift
DELETE FROM notifications WHERE notification_uuid IN (
    SELECT notification_uuid FROM notifications
    WHERE processed_at IS NOT NULL AND received_at < $1
      AND received_at < (SELECT MAX(received_at) FROM notifications)
    ORDER BY received_at LIMIT $2)
RETURNING 1;

-- LedgerRetention.swift
DELETE FROM leases WHERE name IN (
    SELECT name FROM leases WHERE expires_at < $1 ORDER BY expires_at LIMIT $2)
RETURNING 1;

-- LedgerRetention.swift
DELETE FROM trace_links WHERE transaction_id IN (
    SELECT transaction_id FROM trace_links WHERE recorded_at < $1 ORDER BY recorded_at
    LIMIT $2)
RETURNING 1;

-- LedgerTimeline.swift
SELECT at / 3600000 AS hour, event, COUNT(*) AS n FROM audit_log
WHERE at >= $1 AND subject = 'transaction'
GROUP BY at / 3600000, event;

-- LedgerTimeline.swift
SELECT at, webhook_backlog, unbound FROM queue_samples WHERE at >= $1 ORDER BY at;

-- LedgerTimeline.swift
INSERT INTO queue_samples (at, webhook_backlog, unbound)
VALUES ($1, $2, $3) ON CONFLICT (at) DO NOTHING;

-- LedgerTimeline.swift
DELETE FROM queue_samples WHERE at < $1;

-- PostgresLedgerStore+APIKeys.swift
INSERT INTO api_keys (name, secret_hash, scopes, apps, created_at, created_by, expires_at, revoked_at)
VALUES ($1, $2, $3, $4, $5, $6,
    $7, $8)
ON CONFLICT DO NOTHING RETURNING name;

-- PostgresLedgerStore+APIKeys.swift
SELECT name, secret_hash, scopes, apps, created_at, created_by, expires_at, revoked_at FROM api_keys ORDER BY created_at, name;

-- PostgresLedgerStore+APIKeys.swift
SELECT name, secret_hash, scopes, apps, created_at, created_by, expires_at, revoked_at FROM api_keys
WHERE secret_hash = $1;

-- PostgresLedgerStore+APIKeys.swift
UPDATE api_keys SET revoked_at = $1 WHERE name = $2 AND revoked_at IS NULL
RETURNING name, secret_hash, scopes, apps, created_at, created_by, expires_at, revoked_at;

-- PostgresLedgerStore+APIKeys.swift
SELECT name, secret_hash, scopes, apps, created_at, created_by, expires_at, revoked_at FROM api_keys
WHERE name = $1;

-- PostgresLedgerStore+AppleFollowUps.swift
SELECT transaction_id FROM apple_transactions WHERE app_transaction_id = $1
ORDER BY recorded_at, transaction_id LIMIT 500;

-- PostgresLedgerStore+AppleFollowUps.swift
SELECT transaction_id, original_transaction_id, environment, app_account_token_for_apple,
    (state = 'credited' AND finished_at_apple IS NULL AND credited_by IS NOT NULL
        AND (credited_by <> 'client' OR updated_at <= $1)) AS finish
FROM apple_transactions
WHERE (state = 'credited' AND finished_at_apple IS NULL AND credited_by IS NOT NULL
        AND (credited_by <> 'client' OR updated_at <= $2))
    OR app_account_token_for_apple IS NOT NULL
ORDER BY updated_at, transaction_id LIMIT $3;

-- PostgresLedgerStore+AppleFollowUps.swift
UPDATE apple_transactions SET finished_at_apple = $1
WHERE transaction_id = $2 AND finished_at_apple IS NULL;

-- PostgresLedgerStore+AppleFollowUps.swift
UPDATE apple_transactions SET app_account_token_for_apple = NULL
WHERE transaction_id = $1 AND app_account_token_for_apple = $2;

-- PostgresLedgerStore+Console.swift
SELECT name, password_hash, disabled, generation, grant_limit, grant_limit_per_day, updated_at FROM console_operators ORDER BY name;

-- PostgresLedgerStore+Console.swift
INSERT INTO console_operators (name, password_hash, disabled, generation, grant_limit,
    grant_limit_per_day, created_at, updated_at)
VALUES ($1, $2, $3, $4,
    $5, $6, $7, $8)
ON CONFLICT (name) DO NOTHING RETURNING name;

-- PostgresLedgerStore+Console.swift
UPDATE console_operators SET updated_at = $1 WHERE name = $2 RETURNING name;

-- PostgresLedgerStore+Console.swift
UPDATE console_operators SET disabled = $1, updated_at = $2,
    generation = generation + $3
WHERE name = $4 RETURNING name;

-- PostgresLedgerStore+Console.swift
UPDATE console_operators SET password_hash = $1, updated_at = $2,
    generation = generation + $3
WHERE name = $4 RETURNING name;

-- PostgresLedgerStore+Console.swift
UPDATE console_operators SET grant_limit = $1, grant_limit_per_day = $2,
    updated_at = $3
WHERE name = $4 RETURNING name;

-- PostgresLedgerStore+Console.swift
SELECT key, COUNT(*) AS n FROM console_sign_in_failures
WHERE key = ANY($1) AND at >= $2 GROUP BY key;

-- PostgresLedgerStore+Console.swift
DELETE FROM console_sign_in_failures WHERE at < $1;

-- PostgresLedgerStore+Console.swift
INSERT INTO console_sign_in_failures (key, at) VALUES ($1, $2);

-- PostgresLedgerStore+Console.swift
DELETE FROM console_sign_in_failures WHERE key = $1;

-- PostgresLedgerStore+Console.swift
DELETE FROM console_operator_roles WHERE operator_name = $1 AND app = $2;

-- PostgresLedgerStore+Console.swift
INSERT INTO console_operator_roles (operator_name, app, role) VALUES ($1, $2, $3)
ON CONFLICT (operator_name, app) DO UPDATE SET role = excluded.role;

-- PostgresLedgerStore+Console.swift
SELECT name, password_hash, disabled, generation, grant_limit, grant_limit_per_day, updated_at FROM console_operators WHERE name = $1;

-- PostgresLedgerStore+Console.swift
SELECT app, role FROM console_operator_roles WHERE operator_name = $1;

-- PostgresLedgerStore+ConsoleGrants.swift
SELECT pg_advisory_xact_lock($1, hashtext($2));

-- PostgresLedgerStore+ConsoleGrants.swift
INSERT INTO console_grants (id, app, user_id, currency, amount, reason, requested_by, requested_at, state, decided_by, decided_at)
VALUES ($1, $2, $3, $4, $5, $6,
    $7, $8, $9, $10,
    $11)
ON CONFLICT (id) DO NOTHING RETURNING id;

-- PostgresLedgerStore+ConsoleGrants.swift
SELECT id, app, user_id, currency, amount, reason, requested_by, requested_at, state, decided_by, decided_at FROM console_grants
WHERE app = $1 AND state = $2 ORDER BY requested_at, id LIMIT $3;

-- PostgresLedgerStore+ConsoleGrants.swift
SELECT CAST(COALESCE(SUM(amount), 0) AS BIGINT) AS total FROM console_grants
WHERE requested_by = $1 AND currency = $2 AND requested_at >= $3
  AND app = $4 AND state = 'granted';

-- PostgresLedgerStore+ConsoleGrants.swift
UPDATE console_grants SET state = $1, decided_by = $2, decided_at = $3
WHERE id = $4 AND state = 'pending' AND requested_by <> $5 RETURNING id;

-- PostgresLedgerStore+ConsoleGrants.swift
SELECT id, app, user_id, currency, amount, reason, requested_by, requested_at, state, decided_by, decided_at FROM console_grants WHERE id = $1;

-- PostgresLedgerStore+ConsoleSessions.swift
DELETE FROM console_ended_sessions WHERE expires_at < $1;

-- PostgresLedgerStore+ConsoleSessions.swift
INSERT INTO console_ended_sessions (id, expires_at) VALUES ($1, $2)
ON CONFLICT (id) DO NOTHING;

-- PostgresLedgerStore+ConsoleSessions.swift
SELECT 1 FROM console_ended_sessions WHERE id = $1;

-- PostgresLedgerStore+Erasure.swift
UPDATE webhook_sequences SET last = GREATEST(last,
    (SELECT p.last FROM webhook_sequences p WHERE p.user_id = $1))
WHERE user_id = $2
  AND EXISTS (SELECT 1 FROM webhook_sequences p WHERE p.user_id = $3);

-- PostgresLedgerStore+Erasure.swift
DELETE FROM webhook_sequences WHERE user_id = $1
  AND EXISTS (SELECT 1 FROM webhook_sequences u WHERE u.user_id = $2);

-- PostgresLedgerStore+Erasure.swift
INSERT INTO audit_log (at, subject, subject_id, event, cause, detail)
VALUES ($1, 'user', $2, 'erased', $3,
    $4);

-- PostgresLedgerStore+Erasure.swift
SELECT table_name::text AS table_name, column_name::text AS column_name FROM information_schema.columns
WHERE table_schema = current_schema() AND data_type IN ('text', 'character varying')
ORDER BY table_name, ordinal_position;

-- PostgresLedgerStore+Holds.swift
INSERT INTO wallet_holds (idempotency_id, user_id, amounts, reason, expires_in_seconds, cause, state,
    expires_at, created_at)
VALUES ($1, $2, $3, $4,
    $5, $6, 'open', $7, $8);

-- PostgresLedgerStore+Holds.swift
SELECT idempotency_id FROM wallet_holds WHERE state = 'open' AND expires_at <= $1
ORDER BY expires_at LIMIT $2 FOR UPDATE SKIP LOCKED;

-- PostgresLedgerStore+Holds.swift
UPDATE wallet_holds SET state = $1, captured = $2,
    resolved_at = $3
WHERE idempotency_id = $4 AND state = 'open';

-- PostgresLedgerStore+Holds.swift
SELECT amounts FROM wallet_holds
WHERE user_id = $1 AND state = 'open' AND expires_at > $2;

-- PostgresLedgerStore+Holds.swift
SELECT user_id, amounts, reason, expires_in_seconds, cause, state, captured, expires_at, created_at,
    resolved_at
FROM wallet_holds WHERE idempotency_id = $1;

-- PostgresLedgerStore+Leases.swift
INSERT INTO leases (name, holder, expires_at) VALUES ($1, $2, $3)
ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at
WHERE leases.holder = excluded.holder OR leases.expires_at <= $4
RETURNING holder;

-- PostgresLedgerStore+Leases.swift
DELETE FROM leases WHERE name = $1 AND holder = $2;

-- PostgresLedgerStore+Notifications.swift
INSERT INTO notifications (notification_uuid, notification_type, subtype, transaction_id, environment,
    signed_date, received_at)
VALUES ($1, $2, $3, $4,
    $5, $6, $7)
ON CONFLICT (notification_uuid) DO NOTHING RETURNING notification_uuid;

-- PostgresLedgerStore+Notifications.swift
SELECT * FROM notifications WHERE notification_uuid = $1;

-- PostgresLedgerStore+Notifications.swift
UPDATE notifications SET processed_at = $1, outcome = $2
WHERE notification_uuid = $3;

-- PostgresLedgerStore+Notifications.swift
SELECT notification_uuid FROM notifications
WHERE processed_at IS NOT NULL AND notification_uuid = ANY($1);

-- PostgresLedgerStore+Orders.swift
UPDATE orders SET state = 'cancelled', updated_at = $1
WHERE id = $2 AND state = 'created';

-- PostgresLedgerStore+Outbox.swift
INSERT INTO webhook_sequences (user_id, last) VALUES ($1, 1)
ON CONFLICT (user_id) DO UPDATE SET last = webhook_sequences.last + 1
RETURNING last;

-- PostgresLedgerStore+Outbox.swift
INSERT INTO outbox (idempotency_key, webhook_id, topic, user_id, sequence, payload, created_at)
VALUES ($1, $2, $3, $4, $5,
    $6, $7);

-- PostgresLedgerStore+Queue.swift
SELECT transaction_id FROM apple_transactions WHERE owner_id = $1
ORDER BY recorded_at DESC, transaction_id DESC LIMIT $2;

-- PostgresLedgerStore+Queue.swift
SELECT transaction_id FROM apple_transactions WHERE state = 'unbound'
ORDER BY recorded_at, transaction_id LIMIT $1;

-- PostgresLedgerStore+Queue.swift
SELECT id FROM orders WHERE state = 'created' AND product_id = $1
  AND created_at BETWEEN $2 AND $3
ORDER BY created_at, id LIMIT $4;

-- PostgresLedgerStore+Queue.swift
SELECT event, COUNT(*) AS n FROM audit_log WHERE at >= $1 GROUP BY event;

-- PostgresLedgerStore+Queue.swift
SELECT received_at, signed_date FROM notifications ORDER BY received_at DESC LIMIT 1;

-- PostgresLedgerStore+Reconciliation.swift
SELECT value FROM reconciliation_cursors WHERE name = $1;

-- PostgresLedgerStore+Reconciliation.swift
INSERT INTO reconciliation_cursors (name, value, updated_at) VALUES ($1, $2, $3)
ON CONFLICT (name) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at;

-- PostgresLedgerStore+Reconciliation.swift
SELECT owner_id, MAX(transaction_id) AS anchor FROM apple_transactions
WHERE owner_id IS NOT NULL GROUP BY owner_id ORDER BY owner_id;

-- PostgresLedgerStore+Refunds.swift
SELECT currency, (-SUM(amount))::BIGINT AS revoked FROM grants
WHERE transaction_id = $1 AND kind IN ('revoke', 'restore') GROUP BY currency;

-- PostgresLedgerStore+Refunds.swift
UPDATE apple_transactions SET state = 'revoked', revocation_date = $1,
    revocation_type = $2, revocation_percentage = $3,
    updated_at = $4
WHERE transaction_id = $5;

-- PostgresLedgerStore+Refunds.swift
UPDATE apple_transactions SET state = 'credited', revocation_date = NULL, revocation_type = NULL,
    revocation_percentage = NULL, updated_at = $1
WHERE transaction_id = $2;

-- PostgresLedgerStore+Refunds.swift
UPDATE apple_transactions SET state = $1, revocation_date = $2,
    revocation_type = $3, revocation_percentage = $4,
    updated_at = $5
WHERE transaction_id = $6;

-- PostgresLedgerStore+Refunds.swift
INSERT INTO grants (transaction_id, user_id, currency, amount, kind, created_at)
VALUES ($1, $2, $3, $4, $5, $6);

-- PostgresLedgerStore+Refunds.swift
SELECT currency, high AS total_high, low AS total_low FROM balances WHERE user_id = $1;

-- PostgresLedgerStore+Refunds.swift
SELECT COUNT(*)::BIGINT AS n FROM audit_log
WHERE subject = 'transaction' AND subject_id = $1 AND event = $2;

-- PostgresLedgerStore+Rows.swift
SELECT id, user_id, product_id, quantity, state, transaction_id, created_at, updated_at FROM orders
WHERE id = $1;

-- PostgresLedgerStore+Rows.swift
SELECT transaction_id FROM apple_transactions WHERE transaction_id = $1 FOR UPDATE;

-- PostgresLedgerStore+Rows.swift
SELECT t.*,
    ARRAY(SELECT currency FROM grants g WHERE g.transaction_id = t.transaction_id AND g.kind = 'credit'
          ORDER BY g.id) AS grant_currencies,
    ARRAY(SELECT amount FROM grants g WHERE g.transaction_id = t.transaction_id AND g.kind = 'credit'
          ORDER BY g.id) AS grant_amounts
FROM apple_transactions t WHERE t.transaction_id = $1;

-- PostgresLedgerStore+Settle.swift
INSERT INTO trace_links (transaction_id, trace_parent, recorded_at)
SELECT * FROM unnest($1::TEXT[], $2::TEXT[], $3::BIGINT[])
ON CONFLICT (transaction_id) DO NOTHING;

-- PostgresLedgerStore+Settle.swift
SELECT subject_id, COUNT(*)::BIGINT AS n FROM audit_log
WHERE subject = 'transaction' AND event = 'revoked' AND subject_id = ANY ($1::TEXT[])
GROUP BY subject_id;

-- PostgresLedgerStore+Settle.swift
INSERT INTO audit_log (at, subject, subject_id, event, cause, detail)
VALUES ($1, $2, $3, $4, $5,
    $6);

-- PostgresLedgerStore+Traces.swift
SELECT trace_parent FROM trace_links WHERE transaction_id = $1;

-- PostgresLedgerStore+Users.swift
SELECT DISTINCT product_id FROM apple_transactions
WHERE owner_id = $1 AND state = 'credited';

-- PostgresLedgerStore+Users.swift
SELECT id, user_id, product_id, quantity, state, transaction_id, created_at, updated_at FROM orders
WHERE user_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2;

-- PostgresLedgerStore+Users.swift
SELECT transaction_id, recorded_at FROM apple_transactions WHERE owner_id = $1
UNION
SELECT transaction_id, recorded_at FROM apple_transactions
WHERE state <> 'credited' AND app_account_token IN (
    SELECT o.id FROM orders o WHERE o.user_id = $2 UNION SELECT $3)
ORDER BY recorded_at DESC, transaction_id DESC LIMIT $4;

-- PostgresLedgerStore+WalletBatch.swift
SELECT pg_advisory_xact_lock(l.k, l.h) FROM (
    SELECT $1::INT AS k, hashtext(i) AS h, 0 AS o, i AS v FROM unnest($2::TEXT[]) i
    UNION ALL
    SELECT $3::INT, hashtext(u), 1, u FROM unnest($4::TEXT[]) u) AS l
ORDER BY l.o, l.h, l.v;

-- PostgresLedgerStore+WalletBatch.swift
SELECT 't' AS kind, user_id, idempotency_id AS key, amounts, reason, metadata, cause, balances,
    created_at AS number, NULL::BIGINT AS low
FROM wallet_transactions WHERE idempotency_id = ANY ($1::TEXT[])
UNION ALL
SELECT 'b', user_id, currency, NULL, NULL, NULL, NULL, NULL, high, low
FROM balances WHERE user_id = ANY ($2::TEXT[])
UNION ALL
SELECT 'h', user_id, NULL, amounts, NULL, NULL, NULL, NULL, NULL, NULL FROM wallet_holds
WHERE user_id = ANY ($3::TEXT[]) AND state = 'open' AND expires_at > $4;

-- PostgresLedgerStore+WalletBatchWrite.swift
WITH s AS (
    INSERT INTO webhook_sequences (user_id, last)
    SELECT u, n FROM unnest($1::TEXT[], $2::BIGINT[]) AS x(u, n)
    ON CONFLICT (user_id) DO UPDATE SET last = webhook_sequences.last + EXCLUDED.last
    RETURNING user_id, last)
SELECT 's' AS kind, user_id, last AS value FROM s
UNION ALL
SELECT 'r', NULL, nextval(pg_get_serial_sequence('wallet_transactions', 'id'))
FROM generate_series(1, $3);

-- PostgresLedgerStore+WalletBatchWrite.swift
WITH t AS (
    INSERT INTO wallet_transactions
        (id, idempotency_id, user_id, amounts, reason, metadata, cause, balances, created_at)
    SELECT * FROM unnest($1::BIGINT[], $2::TEXT[], $3::TEXT[],
        $4::TEXT[], $5::TEXT[], $6::TEXT[], $7::TEXT[],
        $8::TEXT[], $9::BIGINT[])),
e AS (
    INSERT INTO wallet_entries (wallet_transaction_id, user_id, currency, amount)
    SELECT * FROM unnest($10::BIGINT[], $11::TEXT[],
        $12::TEXT[], $13::BIGINT[])),
o AS (
    INSERT INTO outbox (idempotency_key, webhook_id, topic, user_id, sequence, payload, created_at)
    SELECT * FROM unnest($14::TEXT[], $15::TEXT[], $16::TEXT[],
        $17::TEXT[], $18::BIGINT[], $19::TEXT[], $20::BIGINT[]))
INSERT INTO audit_log (at, subject, subject_id, event, cause, detail)
SELECT * FROM unnest($21::BIGINT[], $22::TEXT[], $23::TEXT[],
    $24::TEXT[], $25::TEXT[], $26::TEXT[]);

-- PostgresLedgerStore+Wallets.swift
INSERT INTO wallet_transactions
    (idempotency_id, user_id, amounts, reason, metadata, cause, balances, created_at)
VALUES ($1, $2, $3, $4,
    $5, $6, $7,
    $8)
RETURNING id;

-- PostgresLedgerStore+Wallets.swift
INSERT INTO wallet_entries (wallet_transaction_id, user_id, currency, amount)
SELECT $1, $2, c, a
FROM unnest($3::TEXT[], $4::BIGINT[]) AS u(c, a);

-- PostgresLedgerStore+Wallets.swift
SELECT at, source, row, kind, ref, amounts, cause, reason, balances FROM (
    SELECT created_at AS at, 'g'::TEXT AS source, MAX(row) AS row, kind, transaction_id AS ref,
        json_object_agg(currency, amount)::TEXT AS amounts, NULL::TEXT AS cause, NULL::TEXT AS reason,
        NULL::TEXT AS balances
    FROM (
        SELECT created_at, MAX(id) AS row, kind, transaction_id, currency, SUM(amount) AS amount
        FROM grants WHERE user_id = $1
        GROUP BY transaction_id, kind, created_at, currency) AS per_currency
    GROUP BY transaction_id, kind, created_at
    UNION ALL
    SELECT created_at, 'w'::TEXT, id, ''::TEXT, idempotency_id, amounts, cause, reason, balances
    FROM wallet_transactions WHERE user_id = $2) AS history
WHERE (at, source, row) < ($3, $4, $5)
ORDER BY at DESC, source DESC, row DESC LIMIT $6;

-- PostgresLedgerStore+Webhooks.swift
UPDATE outbox SET dispatched_at = $1
WHERE id IN (SELECT id FROM outbox WHERE dispatched_at IS NULL ORDER BY id LIMIT $2
             FOR UPDATE SKIP LOCKED)
RETURNING id, topic;

-- PostgresLedgerStore+Webhooks.swift
INSERT INTO webhook_deliveries (event_id, endpoint, status, attempts, next_attempt_at, created_at)
SELECT event_id, endpoint, 'pending', 0, $1, $2
FROM UNNEST($3::BIGINT[], $4::TEXT[]) AS fanned (event_id, endpoint)
ON CONFLICT (event_id, endpoint) DO NOTHING;

-- PostgresLedgerStore+Webhooks.swift
UPDATE webhook_deliveries d SET claimed_by = $1, claimed_until = $2
FROM outbox o
WHERE o.id = d.event_id
  AND d.id IN (SELECT d.id FROM webhook_deliveries d
               WHERE d.endpoint = $3 AND d.status IN ('pending', 'failed')
                 AND d.next_attempt_at <= $4
                 AND (d.claimed_until IS NULL OR d.claimed_until <= $5)
                 
               ORDER BY d.next_attempt_at, d.id LIMIT $6 FOR UPDATE SKIP LOCKED)
RETURNING d.id, d.endpoint, d.attempts, d.next_attempt_at, o.webhook_id, o.topic, o.payload;

-- PostgresLedgerStore+Webhooks.swift
UPDATE webhook_deliveries SET status = 'delivered', attempts = attempts + 1, delivered_at = $1,
    last_attempt_at = $2, last_result = $3, next_attempt_at = $4,
    claimed_by = NULL, claimed_until = NULL
WHERE id = $5 AND status <> 'delivered';

-- PostgresLedgerStore+Webhooks.swift
UPDATE webhook_deliveries SET status = $1,
    attempts = attempts + 1, next_attempt_at = $2,
    last_attempt_at = $3, last_result = $4, claimed_by = NULL,
    claimed_until = NULL
WHERE id = $5 AND claimed_by = $6 AND status IN ('pending', 'failed');

-- PostgresLedgerStore+Webhooks.swift
UPDATE webhook_deliveries SET claimed_by = NULL, claimed_until = NULL
WHERE id = $1 AND claimed_by = $2;

-- PostgresLedgerStore+Webhooks.swift
SELECT id, topic, pruned_at FROM outbox WHERE webhook_id = $1 FOR UPDATE;

-- PostgresLedgerStore+Webhooks.swift
INSERT INTO webhook_deliveries (event_id, endpoint, status, attempts, next_attempt_at, created_at)
VALUES ($1, $2, 'pending', 0, $3, $4)
ON CONFLICT (event_id, endpoint) DO UPDATE SET status = 'pending', attempts = 0,
    next_attempt_at = excluded.next_attempt_at, delivered_at = NULL, claimed_by = NULL,
    claimed_until = NULL;

-- PostgresLedgerStore+Webhooks.swift
UPDATE outbox SET dispatched_at = COALESCE(dispatched_at, $1) WHERE id = $2;

-- PostgresLedgerStore+Webhooks.swift
SELECT (SELECT COUNT(*) FROM outbox) AS events,
       (SELECT COUNT(*) FROM outbox WHERE dispatched_at IS NULL) AS undispatched,
       COUNT(*) FILTER (WHERE status = 'pending') AS pending,
       COUNT(*) FILTER (WHERE status = 'failed') AS failed,
       COUNT(*) FILTER (WHERE status = 'dead') AS dead,
       COUNT(*) FILTER (WHERE status = 'delivered') AS delivered,
       COALESCE(SUM(attempts), 0)::BIGINT AS attempts,
       COALESCE(SUM(GREATEST(attempts - 1, 0)), 0)::BIGINT AS retries
FROM webhook_deliveries;

-- PostgresLedgerStore+Webhooks.swift
SELECT d.id, d.endpoint, d.status, d.attempts, d.next_attempt_at, d.last_attempt_at, d.last_result,
       d.delivered_at, d.created_at, o.webhook_id, o.topic, o.user_id
FROM webhook_deliveries d JOIN outbox o ON o.id = d.event_id;

-- PostgresLedgerStore.swift
INSERT INTO orders (id, user_id, product_id, quantity, state, transaction_id, created_at,
    updated_at)
VALUES ($1, $2, $3, $4,
    $5, $6, $7,
    $8);

-- PostgresLedgerStore.swift
SELECT at, subject, subject_id, event, cause, detail FROM audit_log WHERE subject_id = $1
ORDER BY id;

-- PostgresLedgerStore.swift
SELECT (SELECT COUNT(*) FROM orders) AS orders,
       (SELECT COUNT(*) FROM apple_transactions) AS transactions,
       (SELECT COUNT(*) FROM apple_transactions WHERE state = 'credited') AS credited,
       (SELECT COUNT(*) FROM grants) AS grants,
       (SELECT COUNT(*) FROM audit_log) AS audit;

-- PostgresSettleStatements.swift
SELECT * FROM purser_settle_lock($1, $2, $3);

-- PostgresSettleStatements.swift
SELECT purser_settle_write($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24, $25, $26, $27, $28, $29, $30, $31, $32, $33, $34, $35, $36, $37, $38, $39, $40, $41, $42, $43, $44, $45, $46, $47, $48, $49, $50, $51, $52, $53, $54, $55, $56, $57, $58, $59, $60);
