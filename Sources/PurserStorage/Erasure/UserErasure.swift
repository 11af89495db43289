import Foundation
import PurserCore

/// What erasing a user changed (`LedgerStore.eraseUser`): their id became `pseudonym` in every row that held it, the
/// money stayed where it was.
public struct UserErasure: Sendable, Hashable, Codable {
    /// The keyed pseudonym that replaced the id.
    public var pseudonym: String
    /// Rows rewritten, per table.
    public var rows: [String: Int]
    /// Rows where the id is kept because a caller chose it as an idempotency id (`wallet_transactions.idempotency_id`,
    /// `wallet_holds.idempotency_id`): rewriting it would let a retry apply twice. Per table.
    public var kept: [String: Int]
    /// The webhook id of the `user.erased` event.
    public var eventID: String

    public init(pseudonym: String, rows: [String: Int], kept: [String: Int], eventID: String) {
        self.pseudonym = pseudonym
        self.rows = rows
        self.kept = kept
        self.eventID = eventID
    }

    /// The rules both stores follow, in one place.
    enum Rules {
        /// Columns a caller chose as idempotency ids, never rewritten.
        static let callerIDs: Set<String> = ["wallet_transactions.idempotency_id", "wallet_holds.idempotency_id"]
        /// Columns dropped from the user's rows (free-form, may identify the person without holding the id).
        static let dropped: [String: String] = ["wallet_transactions": "metadata"]
        /// Tables an erasure leaves alone: the migrations' record, and the console's operators, ended sessions and
        /// failed sign-ins (staff names and addresses, never a player's id; a player who shares an operator's name
        /// keeps them).
        static let untouched: Set<String> = [
            "schema_migrations", "console_operators", "console_operator_roles", "console_sign_in_failures",
            "console_ended_sessions",
        ]

        /// What an erasure replaces, in order: the id by the pseudonym, then the account token Purser derives from the
        /// id (`OrderID.accountToken(for:)`, the `appAccountToken` it gives Apple for the owner) by the pseudonym's,
        /// since anyone who knows the id could derive the token and find the rows by it.
        static func replacements(of user: UserID, by pseudonym: UserID) -> [(id: ErasureText, by: String)] {
            [
                (ErasureText(user.rawValue), pseudonym.rawValue),
                (
                    ErasureText(OrderID.accountToken(for: user).description, anyCase: true),
                    OrderID.accountToken(for: pseudonym).description
                ),
            ]
        }

        /// The columns of `row` the erasure changes: every text holding `id` rewritten (but callers' ids), and
        /// `dropped` emptied on the user's own rows; `keptID` tells that a caller's id holds it.
        static func rewrite(
            _ row: [String: LedgerRow.Value], table: String, id: ErasureText, pseudonym: String
        ) -> (changes: [String: LedgerRow.Value], keptID: Bool) {
            var changes: [String: LedgerRow.Value] = [:]
            var keptID = false
            for (column, value) in row {
                guard let text = value.text, id.occurs(in: text) else { continue }
                if callerIDs.contains("\(table).\(column)") {
                    keptID = true
                    continue
                }
                changes[column] = .text(id.replacing(in: text, with: pseudonym))
            }
            if changes["user_id"] != nil, let column = dropped[table], row[column] != nil, row[column] != .null {
                changes[column] = .null
            }
            return (changes, keptID)
        }

        /// The audit record's detail: what changed.
        static func detail(_ erasure: UserErasure) -> String {
            let rows = erasure.rows.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
            let kept = erasure.kept.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
            return "rewrote " + (rows.isEmpty ? "nothing" : rows.joined(separator: ", "))
                + (kept.isEmpty ? "" : "; kept callers' ids in " + kept.joined(separator: ", "))
        }
    }
}
