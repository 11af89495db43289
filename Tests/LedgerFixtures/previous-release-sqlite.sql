-- Every statement of the sqlite ledger store at 922c14d (2026-12-07),
-- printed by scripts/release-statements.py 922c14d sqlite.
-- schema: sqlite 19, postgres 19

-- LedgerBalances.swift
INSERT INTO balances (user_id, currency, high, low)
SELECT user_id, currency, ?, ? FROM (
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
UNION ALL SELECT 'total_high', currency, ? FROM (
    SELECT currency, amount FROM grants UNION ALL SELECT currency, amount FROM wallet_entries) AS e
GROUP BY currency
UNION ALL SELECT 'total_low', currency, ? FROM (
    SELECT currency, amount FROM grants UNION ALL SELECT currency, amount FROM wallet_entries) AS e
GROUP BY currency;

-- LedgerRetention.swift
UPDATE outbox SET payload = '{}', pruned_at = ? WHERE id IN (
    SELECT o.id FROM outbox o
    WHERE o.pruned_at IS NULL AND o.dispatched_at IS NOT NULL AND o.created_at < ?
      AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d
                      WHERE d.event_id = o.id AND d.status <> 'delivered')
    ORDER BY o.id LIMIT ?)
RETURNING 1;

-- LedgerRetention.swift
DELETE FROM notifications WHERE notification_uuid IN (
    SELECT notification_uuid FROM notifications
    WHERE processed_at IS NOT NULL AND received_at < ?
      AND received_at < (SELECT MAX(received_at) FROM notifications)
    ORDER BY received_at LIMIT ?)
RETURNING 1;

-- LedgerRetention.swift
DELETE FROM leases WHERE name IN (
    SELECT name FROM leases WHERE expires_at < ? ORDER BY expires_at LIMIT ?)
RETURNING 1;

-- LedgerRetention.swift
DELETE FROM trace_links WHERE transaction_id IN (
    SELECT transaction_id FROM trace_links WHERE recorded_at < ? ORDER BY recorded_at
    LIMIT ?)
RETURNING 1;

-- LedgerTimeline.swift
SELECT at / 3600000 AS hour, event, COUNT(*) AS n FROM audit_log
WHERE at >= ? AND subject = 'transaction'
GROUP BY at / 3600000, event;

-- LedgerTimeline.swift
SELECT at, webhook_backlog, unbound FROM queue_samples WHERE at >= ? ORDER BY at;

-- LedgerTimeline.swift
INSERT INTO queue_samples (at, webhook_backlog, unbound)
VALUES (?, ?, ?) ON CONFLICT (at) DO NOTHING;

-- LedgerTimeline.swift
DELETE FROM queue_samples WHERE at < ?;

-- SQLiteLedgerStore+APIKeys.swift
INSERT INTO api_keys (name, secret_hash, scopes, apps, created_at, created_by, expires_at, revoked_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING;

-- SQLiteLedgerStore+APIKeys.swift
SELECT name, secret_hash, scopes, apps, created_at, created_by, expires_at, revoked_at FROM api_keys ORDER BY created_at, name;

-- SQLiteLedgerStore+APIKeys.swift
SELECT name, secret_hash, scopes, apps, created_at, created_by, expires_at, revoked_at FROM api_keys WHERE secret_hash = ?;

-- SQLiteLedgerStore+APIKeys.swift
UPDATE api_keys SET revoked_at = ? WHERE name = ? AND revoked_at IS NULL RETURNING name, secret_hash, scopes, apps, created_at, created_by, expires_at, revoked_at;

-- SQLiteLedgerStore+APIKeys.swift
SELECT name, secret_hash, scopes, apps, created_at, created_by, expires_at, revoked_at FROM api_keys WHERE name = ?;

-- SQLiteLedgerStore+AppleFollowUps.swift
SELECT transaction_id FROM apple_transactions WHERE app_transaction_id = ?
ORDER BY recorded_at, transaction_id LIMIT 500;

-- SQLiteLedgerStore+AppleFollowUps.swift
SELECT transaction_id, original_transaction_id, environment, app_account_token_for_apple,
    (state = 'credited' AND finished_at_apple IS NULL AND credited_by IS NOT NULL AND (credited_by <> 'client' OR updated_at <= ?1)) AS finish
FROM apple_transactions WHERE (state = 'credited' AND finished_at_apple IS NULL AND credited_by IS NOT NULL AND (credited_by <> 'client' OR updated_at <= ?1)) OR app_account_token_for_apple IS NOT NULL
ORDER BY updated_at, transaction_id LIMIT ?2;

-- SQLiteLedgerStore+AppleFollowUps.swift
UPDATE apple_transactions SET finished_at_apple = ?
WHERE transaction_id = ? AND finished_at_apple IS NULL;

-- SQLiteLedgerStore+AppleFollowUps.swift
UPDATE apple_transactions SET app_account_token_for_apple = NULL
WHERE transaction_id = ? AND app_account_token_for_apple = ?;

-- SQLiteLedgerStore+Console.swift
SELECT name, password_hash, disabled, generation, grant_limit, grant_limit_per_day, updated_at FROM console_operators ORDER BY name;

-- SQLiteLedgerStore+Console.swift
INSERT INTO console_operators (name, password_hash, disabled, generation, grant_limit,
    grant_limit_per_day, created_at, updated_at)
VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (name) DO NOTHING RETURNING name;

-- SQLiteLedgerStore+Console.swift
UPDATE console_operators SET updated_at = ? WHERE name = ? RETURNING name;

-- SQLiteLedgerStore+Console.swift
SELECT COUNT(*) AS n FROM console_sign_in_failures WHERE key = ? AND at >= ?;

-- SQLiteLedgerStore+Console.swift
DELETE FROM console_sign_in_failures WHERE at < ?;

-- SQLiteLedgerStore+Console.swift
INSERT INTO console_sign_in_failures (key, at) VALUES (?, ?);

-- SQLiteLedgerStore+Console.swift
DELETE FROM console_sign_in_failures WHERE key = ?;

-- SQLiteLedgerStore+Console.swift
DELETE FROM console_operator_roles WHERE operator_name = ? AND app = ?;

-- SQLiteLedgerStore+Console.swift
INSERT INTO console_operator_roles (operator_name, app, role) VALUES (?, ?, ?)
ON CONFLICT (operator_name, app) DO UPDATE SET role = excluded.role;

-- SQLiteLedgerStore+Console.swift
SELECT name, password_hash, disabled, generation, grant_limit, grant_limit_per_day, updated_at FROM console_operators WHERE name = ?;

-- SQLiteLedgerStore+Console.swift
SELECT app, role FROM console_operator_roles WHERE operator_name = ?;

-- SQLiteLedgerStore+ConsoleGrants.swift
INSERT INTO console_grants (id, app, user_id, currency, amount, reason, requested_by, requested_at, state, decided_by, decided_at)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING RETURNING id;

-- SQLiteLedgerStore+ConsoleGrants.swift
SELECT id, app, user_id, currency, amount, reason, requested_by, requested_at, state, decided_by, decided_at FROM console_grants WHERE app = ? AND state = ?
ORDER BY requested_at, id LIMIT ?;

-- SQLiteLedgerStore+ConsoleGrants.swift
SELECT COALESCE(SUM(amount), 0) AS total FROM console_grants
WHERE requested_by = ? AND currency = ? AND requested_at >= ? AND app = ? AND state = 'granted';

-- SQLiteLedgerStore+ConsoleGrants.swift
UPDATE console_grants SET state = ?, decided_by = ?, decided_at = ?
WHERE id = ? AND state = 'pending' AND requested_by <> ? RETURNING id;

-- SQLiteLedgerStore+ConsoleGrants.swift
SELECT id, app, user_id, currency, amount, reason, requested_by, requested_at, state, decided_by, decided_at FROM console_grants WHERE id = ?;

-- SQLiteLedgerStore+ConsoleSessions.swift
DELETE FROM console_ended_sessions WHERE expires_at < ?;

-- SQLiteLedgerStore+ConsoleSessions.swift
INSERT INTO console_ended_sessions (id, expires_at) VALUES (?, ?) ON CONFLICT (id) DO NOTHING;

-- SQLiteLedgerStore+ConsoleSessions.swift
SELECT 1 AS ended FROM console_ended_sessions WHERE id = ?;

-- SQLiteLedgerStore+Erasure.swift
INSERT INTO audit_log (at, subject, subject_id, event, cause, detail) VALUES (?, 'user', ?, 'erased', ?, ?);

-- SQLiteLedgerStore+Erasure.swift
SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name;

-- SQLiteLedgerStore+Erasure.swift
SELECT name, type FROM pragma_table_info(?);

-- SQLiteLedgerStore+Holds.swift
INSERT INTO wallet_holds (idempotency_id, user_id, amounts, reason, expires_in_seconds, cause, state,
    expires_at, created_at)
VALUES (?, ?, ?, ?, ?, ?, 'open', ?, ?);

-- SQLiteLedgerStore+Holds.swift
SELECT idempotency_id FROM wallet_holds WHERE state = 'open' AND expires_at <= ? ORDER BY expires_at LIMIT ?;

-- SQLiteLedgerStore+Holds.swift
UPDATE wallet_holds SET state = ?, captured = ?, resolved_at = ? WHERE idempotency_id = ? AND state = 'open';

-- SQLiteLedgerStore+Holds.swift
SELECT amounts FROM wallet_holds WHERE user_id = ? AND state = 'open' AND expires_at > ?;

-- SQLiteLedgerStore+Holds.swift
SELECT user_id, amounts, reason, expires_in_seconds, cause, state, captured, expires_at, created_at,
    resolved_at
FROM wallet_holds WHERE idempotency_id = ?;

-- SQLiteLedgerStore+Leases.swift
INSERT INTO leases (name, holder, expires_at) VALUES (?, ?, ?)
ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at
WHERE leases.holder = excluded.holder OR leases.expires_at <= ?
RETURNING holder;

-- SQLiteLedgerStore+Leases.swift
DELETE FROM leases WHERE name = ? AND holder = ?;

-- SQLiteLedgerStore+Notifications.swift
INSERT INTO notifications (notification_uuid, notification_type, subtype, transaction_id, environment,
    signed_date, received_at)
VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (notification_uuid) DO NOTHING RETURNING notification_uuid;

-- SQLiteLedgerStore+Notifications.swift
SELECT * FROM notifications WHERE notification_uuid = ?;

-- SQLiteLedgerStore+Notifications.swift
UPDATE notifications SET processed_at = ?, outcome = ? WHERE notification_uuid = ?;

-- SQLiteLedgerStore+Notifications.swift
SELECT notification_uuid FROM notifications WHERE processed_at IS NOT NULL AND notification_uuid IN (?);

-- SQLiteLedgerStore+Orders.swift
UPDATE orders SET state = 'cancelled', updated_at = ? WHERE id = ? AND state = 'created';

-- SQLiteLedgerStore+Orders.swift
INSERT INTO audit_log (at, subject, subject_id, event, cause, detail)
VALUES (?, 'order', ?, 'cancelled', 'client', ?);

-- SQLiteLedgerStore+Outbox.swift
SELECT COALESCE(MAX(sequence), 0) AS last FROM outbox WHERE user_id = ?;

-- SQLiteLedgerStore+Outbox.swift
INSERT INTO outbox (idempotency_key, webhook_id, topic, user_id, sequence, payload, created_at)
VALUES (?, ?, ?, ?, ?, ?, ?);

-- SQLiteLedgerStore+Queue.swift
SELECT transaction_id FROM apple_transactions WHERE owner_id = ?
ORDER BY recorded_at DESC, transaction_id DESC LIMIT ?;

-- SQLiteLedgerStore+Queue.swift
SELECT transaction_id FROM apple_transactions WHERE state = 'unbound'
ORDER BY recorded_at, transaction_id LIMIT ?;

-- SQLiteLedgerStore+Queue.swift
SELECT id FROM orders WHERE state = 'created' AND product_id = ? AND created_at BETWEEN ? AND ?
ORDER BY created_at, id LIMIT ?;

-- SQLiteLedgerStore+Queue.swift
SELECT event, COUNT(*) AS n FROM audit_log WHERE at >= ? GROUP BY event;

-- SQLiteLedgerStore+Queue.swift
SELECT received_at, signed_date FROM notifications ORDER BY received_at DESC LIMIT 1;

-- SQLiteLedgerStore+Reads.swift
SELECT at, subject, subject_id, event, cause, detail FROM audit_log WHERE subject_id = ? ORDER BY id;

-- SQLiteLedgerStore+Reads.swift
SELECT (SELECT COUNT(*) FROM orders) AS orders,
       (SELECT COUNT(*) FROM apple_transactions) AS transactions,
       (SELECT COUNT(*) FROM apple_transactions WHERE state = 'credited') AS credited,
       (SELECT COUNT(*) FROM grants) AS grants,
       (SELECT COUNT(*) FROM audit_log) AS audit;

-- SQLiteLedgerStore+Reconciliation.swift
SELECT value FROM reconciliation_cursors WHERE name = ?;

-- SQLiteLedgerStore+Reconciliation.swift
INSERT INTO reconciliation_cursors (name, value, updated_at) VALUES (?, ?, ?)
ON CONFLICT (name) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at;

-- SQLiteLedgerStore+Reconciliation.swift
SELECT owner_id, MAX(transaction_id) AS anchor FROM apple_transactions
WHERE owner_id IS NOT NULL GROUP BY owner_id ORDER BY owner_id;

-- SQLiteLedgerStore+Refunds.swift
SELECT currency, -SUM(amount) AS revoked FROM grants
WHERE transaction_id = ? AND kind IN ('revoke', 'restore') GROUP BY currency;

-- SQLiteLedgerStore+Refunds.swift
UPDATE apple_transactions SET state = 'revoked', revocation_date = ?, revocation_type = ?,
    revocation_percentage = ?, updated_at = ?
WHERE transaction_id = ?;

-- SQLiteLedgerStore+Refunds.swift
UPDATE apple_transactions SET state = 'credited', revocation_date = NULL, revocation_type = NULL,
    revocation_percentage = NULL, updated_at = ?
WHERE transaction_id = ?;

-- SQLiteLedgerStore+Refunds.swift
UPDATE apple_transactions SET state = ?, revocation_date = ?, revocation_type = ?,
    revocation_percentage = ?, updated_at = ?
WHERE transaction_id = ?;

-- SQLiteLedgerStore+Refunds.swift
INSERT INTO grants (transaction_id, user_id, currency, amount, kind, created_at) VALUES (?, ?, ?, ?, ?, ?);

-- SQLiteLedgerStore+Refunds.swift
SELECT currency, high AS total_high, low AS total_low FROM balances WHERE user_id = ?;

-- SQLiteLedgerStore+Refunds.swift
SELECT COUNT(*) AS n FROM audit_log WHERE subject = 'transaction' AND subject_id = ? AND event = ?;

-- SQLiteLedgerStore+Rows.swift
SELECT id, user_id, product_id, quantity, state, transaction_id, created_at, updated_at FROM orders WHERE id = ?;

-- SQLiteLedgerStore+Rows.swift
SELECT currency, amount FROM grants WHERE transaction_id = ? AND kind = 'credit';

-- SQLiteLedgerStore+Rows.swift
SELECT transaction_id, original_transaction_id, bundle_id, product_id, type, quantity, purchase_date,
    app_account_token, environment, revocation_date, state, owner_id, order_id, rejection_code,
    rejection_message, recorded_at, revocation_type, revocation_percentage, app_transaction_id,
    finished_at_apple
FROM apple_transactions WHERE transaction_id = ?;

-- SQLiteLedgerStore+Settle.swift
INSERT INTO orders (id, user_id, product_id, quantity, state, transaction_id, created_at, updated_at)
VALUES (?, ?, ?, ?, ?, ?, ?, ?);

-- SQLiteLedgerStore+Settle.swift
INSERT INTO apple_transactions (transaction_id, original_transaction_id, bundle_id, product_id, type,
    quantity, purchase_date, app_account_token, environment, revocation_date, state, owner_id, order_id,
    rejection_code, rejection_message, recorded_at, updated_at, revocation_type, revocation_percentage,
    app_transaction_id, credited_by,
    app_account_token_for_apple)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?);

-- SQLiteLedgerStore+Settle.swift
UPDATE apple_transactions SET state = ?, owner_id = ?, order_id = ?, updated_at = ?, credited_by = ?,
    app_account_token_for_apple = ?, rejection_code = NULL, rejection_message = NULL,
    revocation_date = ?, revocation_type = ?, revocation_percentage = ?
WHERE transaction_id = ? AND state IN ('unbound', 'rejected');

-- SQLiteLedgerStore+Settle.swift
UPDATE orders SET state = 'delivered', transaction_id = ?, updated_at = ?
WHERE id = ? AND state IN ('created', 'cancelled');

-- SQLiteLedgerStore+Settle.swift
INSERT INTO grants (transaction_id, user_id, currency, amount, kind, created_at)
VALUES (?, ?, ?, ?, 'credit', ?);

-- SQLiteLedgerStore+Settle.swift
INSERT INTO audit_log (at, subject, subject_id, event, cause, detail) VALUES (?, ?, ?, ?, ?, ?);

-- SQLiteLedgerStore+Users.swift
SELECT DISTINCT product_id FROM apple_transactions WHERE owner_id = ? AND state = 'credited';

-- SQLiteLedgerStore+Users.swift
SELECT id, user_id, product_id, quantity, state, transaction_id, created_at, updated_at FROM orders
WHERE user_id = ? ORDER BY created_at DESC, id DESC LIMIT ?;

-- SQLiteLedgerStore+Users.swift
SELECT transaction_id, recorded_at FROM apple_transactions WHERE owner_id = ?
UNION
SELECT transaction_id, recorded_at FROM apple_transactions
WHERE state <> 'credited'
  AND app_account_token IN (SELECT o.id FROM orders o WHERE o.user_id = ? UNION SELECT ?)
ORDER BY recorded_at DESC, transaction_id DESC LIMIT ?;

-- SQLiteLedgerStore+Wallets.swift
INSERT INTO wallet_transactions
    (idempotency_id, user_id, amounts, reason, metadata, cause, balances, created_at)
VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id;

-- SQLiteLedgerStore+Wallets.swift
INSERT INTO wallet_entries (wallet_transaction_id, user_id, currency, amount) VALUES (?, ?, ?, ?);

-- SQLiteLedgerStore+Wallets.swift
SELECT user_id, amounts, reason, metadata, cause, balances, created_at FROM wallet_transactions
WHERE idempotency_id = ?;

-- SQLiteLedgerStore+Wallets.swift
SELECT at, source, row, kind, ref, amounts, cause, reason, balances FROM (
    SELECT created_at AS at, 'g' AS source, MAX(row) AS row, kind, transaction_id AS ref,
        json_group_object(currency, amount) AS amounts, NULL AS cause, NULL AS reason, NULL AS balances
    FROM (
        SELECT created_at, MAX(id) AS row, kind, transaction_id, currency, SUM(amount) AS amount
        FROM grants WHERE user_id = ? GROUP BY transaction_id, kind, created_at, currency)
    GROUP BY transaction_id, kind, created_at
    UNION ALL
    SELECT created_at, 'w', id, '', idempotency_id, amounts, cause, reason, balances
    FROM wallet_transactions WHERE user_id = ?)
WHERE (at, source, row) < (?, ?, ?)
ORDER BY at DESC, source DESC, row DESC LIMIT ?;

-- SQLiteLedgerStore+Webhooks.swift
UPDATE outbox SET dispatched_at = ?
WHERE id IN (SELECT id FROM outbox WHERE dispatched_at IS NULL ORDER BY id LIMIT ?)
RETURNING id, topic;

-- SQLiteLedgerStore+Webhooks.swift
INSERT INTO webhook_deliveries (event_id, endpoint, status, attempts, next_attempt_at, created_at)
VALUES (?, ?, 'pending', 0, ?, ?)
ON CONFLICT (event_id, endpoint) DO NOTHING;

-- SQLiteLedgerStore+Webhooks.swift
UPDATE webhook_deliveries SET claimed_by = ?, claimed_until = ?
WHERE id IN (SELECT d.id FROM webhook_deliveries d
             WHERE d.endpoint = ? AND d.status IN ('pending', 'failed') AND d.next_attempt_at <= ?
               AND (d.claimed_until IS NULL OR d.claimed_until <= ?)
               
             ORDER BY d.next_attempt_at, d.id LIMIT ?)
RETURNING id;

-- SQLiteLedgerStore+Webhooks.swift
SELECT d.id, d.endpoint, d.attempts, o.webhook_id, o.topic, o.payload
FROM webhook_deliveries d JOIN outbox o ON o.id = d.event_id
WHERE d.id IN (?)
ORDER BY d.next_attempt_at, d.id;

-- SQLiteLedgerStore+Webhooks.swift
UPDATE webhook_deliveries SET status = 'delivered', attempts = attempts + 1, delivered_at = ?,
    last_attempt_at = ?, last_result = ?, next_attempt_at = ?, claimed_by = NULL,
    claimed_until = NULL
WHERE id = ? AND status <> 'delivered';

-- SQLiteLedgerStore+Webhooks.swift
UPDATE webhook_deliveries SET status = ?, attempts = attempts + 1, next_attempt_at = ?,
    last_attempt_at = ?, last_result = ?, claimed_by = NULL, claimed_until = NULL
WHERE id = ? AND claimed_by = ? AND status IN ('pending', 'failed');

-- SQLiteLedgerStore+Webhooks.swift
UPDATE webhook_deliveries SET claimed_by = NULL, claimed_until = NULL
WHERE id = ? AND claimed_by = ?;

-- SQLiteLedgerStore+Webhooks.swift
SELECT id, topic, pruned_at FROM outbox WHERE webhook_id = ?;

-- SQLiteLedgerStore+Webhooks.swift
INSERT INTO webhook_deliveries (event_id, endpoint, status, attempts, next_attempt_at, created_at)
VALUES (?, ?, 'pending', 0, ?, ?)
ON CONFLICT (event_id, endpoint) DO UPDATE SET status = 'pending', attempts = 0,
    next_attempt_at = excluded.next_attempt_at, delivered_at = NULL, claimed_by = NULL,
    claimed_until = NULL;

-- SQLiteLedgerStore+Webhooks.swift
UPDATE outbox SET dispatched_at = COALESCE(dispatched_at, ?) WHERE id = ?;

-- SQLiteLedgerStore+Webhooks.swift
SELECT (SELECT COUNT(*) FROM outbox) AS events,
       (SELECT COUNT(*) FROM outbox WHERE dispatched_at IS NULL) AS undispatched,
       COALESCE(SUM(status = 'pending'), 0) AS pending, COALESCE(SUM(status = 'failed'), 0) AS failed,
       COALESCE(SUM(status = 'dead'), 0) AS dead, COALESCE(SUM(status = 'delivered'), 0) AS delivered,
       COALESCE(SUM(attempts), 0) AS attempts, COALESCE(SUM(MAX(attempts - 1, 0)), 0) AS retries
FROM webhook_deliveries;

-- SQLiteLedgerStore+Webhooks.swift
SELECT d.id, d.endpoint, d.status, d.attempts, d.next_attempt_at, d.last_attempt_at, d.last_result,
       d.delivered_at, d.created_at, o.webhook_id, o.topic, o.user_id
FROM webhook_deliveries d JOIN outbox o ON o.id = d.event_id;

-- SQLiteLedgerStore.swift
SELECT 1 FROM schema_migrations WHERE version = ?;

-- SQLiteLedgerStore.swift
INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?);
