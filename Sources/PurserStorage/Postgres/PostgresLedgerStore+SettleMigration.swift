import Foundation

extension PostgresLedgerStore {
    /// The advisory lock class of Apple transaction ids (with `hashtext(id)`): "purt" in ASCII. A settlement holds it
    /// for each id it decides, so a transaction not in the ledger yet is decided by one replica at a time.
    static let settlementLockKey: Int32 = 0x7075_7274

    /// Migration 7: a settlement batch in two round trips between `BEGIN` and `COMMIT`. `purser_settle_lock` takes
    /// the locks a batch needs, always in one order (transaction ids, orders, transactions, the owners' webhook
    /// sequences) and returns what the rules read: each order and transaction, and the last webhook sequence of each
    /// user a plan may credit (the orders' users, the transactions' owners, and `users`, whom support credits). `purser_settle_write` writes every plan of the batch from column arrays: new and bound transactions,
    /// grants, outbox events, sequences, fulfilled orders and audit records. PL/pgSQL keeps their plans per session,
    /// and each reaches its rows by key: `enable_seqscan = off` keeps a plan made while a table was nearly empty (a new
    /// ledger, before autovacuum's first ANALYZE) from scanning the whole table on every call once it has grown.
    static let settlementFunctions: [String] = [
        """
        CREATE FUNCTION purser_settle_lock(order_ids TEXT[], transaction_ids TEXT[], users TEXT[])
        RETURNS TABLE (
            kind TEXT, id TEXT, user_id TEXT, product_id TEXT, quantity BIGINT, state TEXT, transaction_id TEXT,
            created_at BIGINT, updated_at BIGINT, original_transaction_id TEXT, bundle_id TEXT, type TEXT,
            purchase_date BIGINT, app_account_token TEXT, environment TEXT, revocation_date BIGINT, owner_id TEXT,
            order_id TEXT, rejection_code TEXT, rejection_message TEXT, recorded_at BIGINT, revocation_type TEXT,
            revocation_percentage BIGINT, app_transaction_id TEXT, finished_at_apple BIGINT, grant_currencies TEXT[],
            grant_amounts BIGINT[], last BIGINT)
        LANGUAGE plpgsql SET enable_seqscan = off SET plan_cache_mode = force_generic_plan AS $$
        #variable_conflict use_column
        DECLARE
            owners TEXT[];
        BEGIN
            PERFORM pg_advisory_xact_lock(\(settlementLockKey), hashtext(ids.t))
            FROM (SELECT DISTINCT unnest(transaction_ids) AS t) AS ids ORDER BY hashtext(ids.t), ids.t;
            PERFORM 1 FROM orders o WHERE o.id = ANY (order_ids) ORDER BY o.id FOR UPDATE;
            PERFORM 1 FROM apple_transactions a WHERE a.transaction_id = ANY (transaction_ids)
            ORDER BY a.transaction_id FOR UPDATE;
            SELECT ARRAY(
                SELECT o.user_id FROM orders o WHERE o.id = ANY (order_ids)
                UNION SELECT a.owner_id FROM apple_transactions a
                WHERE a.transaction_id = ANY (transaction_ids) AND a.owner_id IS NOT NULL
                UNION SELECT unnest(users)
                ORDER BY 1) INTO owners;
            INSERT INTO webhook_sequences (user_id, last) SELECT u, 0 FROM unnest(owners) AS u
            ON CONFLICT (user_id) DO NOTHING;
            PERFORM 1 FROM webhook_sequences s WHERE s.user_id = ANY (owners) ORDER BY s.user_id FOR UPDATE;
            RETURN QUERY
            SELECT 'order'::TEXT, o.id, o.user_id, o.product_id, o.quantity, o.state, o.transaction_id, o.created_at,
                o.updated_at, NULL::TEXT, NULL::TEXT, NULL::TEXT, NULL::BIGINT, NULL::TEXT, NULL::TEXT, NULL::BIGINT,
                NULL::TEXT, NULL::TEXT, NULL::TEXT, NULL::TEXT, NULL::BIGINT, NULL::TEXT, NULL::BIGINT, NULL::TEXT,
                NULL::BIGINT, NULL::TEXT[], NULL::BIGINT[], NULL::BIGINT
            FROM orders o WHERE o.id = ANY (order_ids)
            UNION ALL
            SELECT 'transaction'::TEXT, a.transaction_id, NULL::TEXT, a.product_id, a.quantity, a.state,
                a.transaction_id, NULL::BIGINT, a.updated_at, a.original_transaction_id, a.bundle_id, a.type,
                a.purchase_date, a.app_account_token, a.environment, a.revocation_date, a.owner_id, a.order_id,
                a.rejection_code, a.rejection_message, a.recorded_at, a.revocation_type, a.revocation_percentage,
                a.app_transaction_id, a.finished_at_apple,
                ARRAY(SELECT g.currency FROM grants g WHERE g.transaction_id = a.transaction_id AND g.kind = 'credit'
                      ORDER BY g.id),
                ARRAY(SELECT g.amount FROM grants g WHERE g.transaction_id = a.transaction_id AND g.kind = 'credit'
                      ORDER BY g.id),
                NULL::BIGINT
            FROM apple_transactions a WHERE a.transaction_id = ANY (transaction_ids)
            UNION ALL
            SELECT 'sequence'::TEXT, s.user_id, s.user_id, NULL::TEXT, NULL::BIGINT, NULL::TEXT, NULL::TEXT,
                NULL::BIGINT, NULL::BIGINT, NULL::TEXT, NULL::TEXT, NULL::TEXT, NULL::BIGINT, NULL::TEXT, NULL::TEXT,
                NULL::BIGINT, NULL::TEXT, NULL::TEXT, NULL::TEXT, NULL::TEXT, NULL::BIGINT, NULL::TEXT, NULL::BIGINT,
                NULL::TEXT, NULL::BIGINT, NULL::TEXT[], NULL::BIGINT[], s.last
            FROM webhook_sequences s WHERE s.user_id = ANY (owners);
        END
        $$
        """,
        """
        CREATE FUNCTION purser_settle_write(
            t_ids TEXT[], t_original TEXT[], t_bundle TEXT[], t_product TEXT[], t_type TEXT[], t_quantity BIGINT[],
            t_purchase_date BIGINT[], t_token TEXT[], t_environment TEXT[], t_revocation_date BIGINT[],
            t_state TEXT[], t_owner TEXT[], t_order TEXT[], t_rejection_code TEXT[], t_rejection_message TEXT[],
            t_at BIGINT[], t_revocation_type TEXT[], t_revocation_percentage BIGINT[], t_app_transaction_id TEXT[],
            t_credited_by TEXT[], t_token_for_apple TEXT[],
            b_ids TEXT[], b_state TEXT[], b_owner TEXT[], b_order TEXT[], b_at BIGINT[], b_credited_by TEXT[],
            b_token_for_apple TEXT[],
            g_transaction TEXT[], g_user TEXT[], g_currency TEXT[], g_amount BIGINT[], g_at BIGINT[],
            e_key TEXT[], e_webhook TEXT[], e_topic TEXT[], e_user TEXT[], e_sequence BIGINT[], e_payload TEXT[],
            e_at BIGINT[],
            s_user TEXT[], s_last BIGINT[],
            f_order TEXT[], f_transaction TEXT[], f_at BIGINT[],
            a_at BIGINT[], a_subject TEXT[], a_subject_id TEXT[], a_event TEXT[], a_cause TEXT[], a_detail TEXT[])
        RETURNS void LANGUAGE plpgsql SET enable_seqscan = off SET plan_cache_mode = force_generic_plan AS $$
        BEGIN
            INSERT INTO apple_transactions (transaction_id, original_transaction_id, bundle_id, product_id, type,
                quantity, purchase_date, app_account_token, environment, revocation_date, state, owner_id, order_id,
                rejection_code, rejection_message, recorded_at, updated_at, revocation_type, revocation_percentage,
                app_transaction_id, credited_by, app_account_token_for_apple)
            SELECT u.id, u.original, u.bundle, u.product, u.type, u.quantity, u.purchase_date, u.token, u.environment,
                u.revocation_date, u.state, u.owner, u.order_id, u.rejection_code, u.rejection_message, u.at, u.at,
                u.revocation_type, u.revocation_percentage, u.app_transaction_id, u.credited_by, u.token_for_apple
            FROM unnest(t_ids, t_original, t_bundle, t_product, t_type, t_quantity, t_purchase_date, t_token,
                t_environment, t_revocation_date, t_state, t_owner, t_order, t_rejection_code, t_rejection_message,
                t_at, t_revocation_type, t_revocation_percentage, t_app_transaction_id, t_credited_by,
                t_token_for_apple) WITH ORDINALITY
                AS u(id, original, bundle, product, type, quantity, purchase_date, token, environment,
                     revocation_date, state, owner, order_id, rejection_code, rejection_message, at, revocation_type,
                     revocation_percentage, app_transaction_id, credited_by, token_for_apple, n)
            ORDER BY u.n;
            UPDATE apple_transactions a SET state = u.state, owner_id = u.owner, order_id = u.order_id,
                updated_at = u.at, credited_by = u.credited_by, app_account_token_for_apple = u.token_for_apple
            FROM unnest(b_ids, b_state, b_owner, b_order, b_at, b_credited_by, b_token_for_apple)
                AS u(id, state, owner, order_id, at, credited_by, token_for_apple)
            WHERE a.transaction_id = u.id AND a.state = 'unbound';
            INSERT INTO grants (transaction_id, user_id, currency, amount, kind, created_at)
            SELECT u.transaction_id, u.user_id, u.currency, u.amount, 'credit', u.at
            FROM unnest(g_transaction, g_user, g_currency, g_amount, g_at) WITH ORDINALITY
                AS u(transaction_id, user_id, currency, amount, at, n)
            ORDER BY u.n;
            INSERT INTO outbox (idempotency_key, webhook_id, topic, user_id, sequence, payload, created_at)
            SELECT u.key, u.webhook_id, u.topic, u.user_id, u.sequence, u.payload, u.at
            FROM unnest(e_key, e_webhook, e_topic, e_user, e_sequence, e_payload, e_at) WITH ORDINALITY
                AS u(key, webhook_id, topic, user_id, sequence, payload, at, n)
            ORDER BY u.n;
            UPDATE webhook_sequences s SET last = u.last FROM unnest(s_user, s_last) AS u(user_id, last)
            WHERE s.user_id = u.user_id;
            UPDATE orders o SET state = 'delivered', transaction_id = u.transaction_id, updated_at = u.at
            FROM unnest(f_order, f_transaction, f_at) AS u(id, transaction_id, at)
            WHERE o.id = u.id AND o.state IN ('created', 'cancelled');
            INSERT INTO audit_log (at, subject, subject_id, event, cause, detail)
            SELECT u.at, u.subject, u.subject_id, u.event, u.cause, u.detail
            FROM unnest(a_at, a_subject, a_subject_id, a_event, a_cause, a_detail) WITH ORDINALITY
                AS u(at, subject, subject_id, event, cause, detail, n)
            ORDER BY u.n;
        END
        $$
        """,
    ]

    /// Migration 9: a bind may also credit a transaction the ledger refused, once support overrides the refusal
    /// (`SubmissionRules` decides when), and clears the refusal. It is migration 7's write function with that one
    /// statement widened, derived from it so the two cannot drift apart anywhere else.
    static let overridableBind: [String] = {
        let original = settlementFunctions[1]
        let widened =
            original
            .replacingOccurrences(of: "CREATE FUNCTION", with: "CREATE OR REPLACE FUNCTION")
            .replacingOccurrences(
                of: "credited_by = u.credited_by, app_account_token_for_apple",
                with: "credited_by = u.credited_by, rejection_code = NULL, rejection_message = NULL,\n"
                    + "                app_account_token_for_apple"
            )
            .replacingOccurrences(
                of: "AND a.state = 'unbound';", with: "AND a.state IN ('unbound', 'rejected');")
        precondition(
            widened.contains("rejection_code = NULL") && widened.contains("'rejected')"), "migration 9 drifted")
        return [widened]
    }()
}
