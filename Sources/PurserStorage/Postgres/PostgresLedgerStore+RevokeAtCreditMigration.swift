import Foundation

extension PostgresLedgerStore {
    /// Migration 17: a settlement may take back, in its own database transaction, the share Apple refunded and the
    /// ledger has not revoked (`LedgerPlan.revoke`), so no crash between two writes and no race between a refund's
    /// notification and a credit can leave a credit without its revoke. It is migration 9's write function under a
    /// new signature (the previous release's replicas keep calling the old one during a rolling deploy), derived from
    /// it so the two cannot drift apart elsewhere: each grant row has its kind (`credit` or `revoke`), a bind also
    /// writes the record's revocation columns, and a credited record may be revoked (`r_…`).
    static let revokeAtCredit: [String] = {
        let original = overridableBind[0]
        let extended =
            original
            .replacingOccurrences(
                of: "a_cause TEXT[], a_detail TEXT[])",
                with: "a_cause TEXT[], a_detail TEXT[],\n"
                    + "    g_kind TEXT[], b_revocation_date BIGINT[], b_revocation_type TEXT[],\n"
                    + "    b_revocation_percentage BIGINT[], r_ids TEXT[], r_date BIGINT[], r_type TEXT[],\n"
                    + "    r_percentage BIGINT[], r_at BIGINT[])"
            )
            .replacingOccurrences(
                of: "rejection_code = NULL, rejection_message = NULL,\n",
                with: "rejection_code = NULL, rejection_message = NULL,\n"
                    + "        revocation_date = u.revocation_date, revocation_type = u.revocation_type,\n"
                    + "        revocation_percentage = u.revocation_percentage,\n"
            )
            .replacingOccurrences(
                of: "FROM unnest(b_ids, b_state, b_owner, b_order, b_at, b_credited_by, b_token_for_apple)\n"
                    + "        AS u(id, state, owner, order_id, at, credited_by, token_for_apple)",
                with: "FROM unnest(b_ids, b_state, b_owner, b_order, b_at, b_credited_by, b_token_for_apple,\n"
                    + "        b_revocation_date, b_revocation_type, b_revocation_percentage)\n"
                    + "        AS u(id, state, owner, order_id, at, credited_by, token_for_apple,\n"
                    + "             revocation_date, revocation_type, revocation_percentage)"
            )
            .replacingOccurrences(
                of: "    INSERT INTO grants (transaction_id",
                with: "    UPDATE apple_transactions a SET state = 'revoked', revocation_date = u.revocation_date,\n"
                    + "        revocation_type = u.revocation_type, revocation_percentage = u.revocation_percentage,\n"
                    + "        updated_at = u.at\n"
                    + "    FROM unnest(r_ids, r_date, r_type, r_percentage, r_at)\n"
                    + "        AS u(id, revocation_date, revocation_type, revocation_percentage, at)\n"
                    + "    WHERE a.transaction_id = u.id AND a.state IN ('credited', 'revoked');\n"
                    + "    INSERT INTO grants (transaction_id"
            )
            .replacingOccurrences(
                of: "u.amount, 'credit', u.at\n"
                    + "    FROM unnest(g_transaction, g_user, g_currency, g_amount, g_at) WITH ORDINALITY\n"
                    + "        AS u(transaction_id, user_id, currency, amount, at, n)",
                with: "u.amount, u.kind, u.at\n"
                    + "    FROM unnest(g_transaction, g_user, g_currency, g_amount, g_at, g_kind) WITH ORDINALITY\n"
                    + "        AS u(transaction_id, user_id, currency, amount, at, kind, n)")
        precondition(
            extended.contains("g_kind TEXT[]") && extended.contains("revocation_percentage = u.revocation_percentage")
                && extended.contains("b_revocation_percentage)\n") && extended.contains("u.amount, u.kind, u.at")
                && extended.contains("unnest(r_ids"),
            "migration 17 drifted")
        return [extended]
    }()
}
