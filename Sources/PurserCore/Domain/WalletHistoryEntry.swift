import Foundation

/// One change of a user's wallet, as the history lists it: a purchase credit, a refund's revoke, a restore, or a
/// spend, deposit or adjustment through the wallet API (support's goodwill credits among them).
public struct WalletHistoryEntry: Hashable, Sendable, Codable {
    /// `credit`, `revoke`, `restore` (an Apple transaction's grants), or `spend`, `deposit`, `adjust` (a wallet
    /// transaction; `adjust` spends some currencies and deposits others).
    public var kind: String
    public var at: Date
    /// What the change added per currency (negative: taken away).
    public var amounts: [String: Int64]
    /// The Apple transaction id (grants) or the caller's idempotency id (wallet transactions).
    public var reference: String
    /// Who applied a wallet transaction (`admin`, `support by <operator>`); `nil` for grants.
    public var cause: String?
    public var reason: String?
    /// For a wallet transaction, the balances of its currencies right after it applied, as the ledger decided them
    /// (in commit order, which a replay by `at` may not match); `nil` for grants.
    public var balances: [String: Int64]?

    public init(
        kind: String, at: Date, amounts: [String: Int64], reference: String, cause: String? = nil,
        reason: String? = nil, balances: [String: Int64]? = nil
    ) {
        self.kind = kind
        self.at = at
        self.amounts = amounts
        self.reference = reference
        self.cause = cause
        self.reason = reason
        self.balances = balances
    }

    /// Where a page of the history ends: the next page starts after it. Opaque on the wire (`cursor`).
    public struct Cursor: Hashable, Sendable {
        public var at: Int64
        /// `g` for grants, `w` for wallet transactions: ties at one millisecond are ordered by source, then row.
        public var source: String
        public var row: Int64

        public init(at: Int64, source: String, row: Int64) {
            self.at = at
            self.source = source
            self.row = row
        }

        /// `at.source.row`, as the API hands it out.
        public var token: String { "\(at).\(source).\(row)" }

        public init?(token: String) {
            let parts = token.split(separator: ".", omittingEmptySubsequences: false)
            guard parts.count == 3, let at = Int64(parts[0]), let row = Int64(parts[2]),
                parts[1] == "g" || parts[1] == "w"
            else { return nil }
            self.init(at: at, source: String(parts[1]), row: row)
        }
    }

    /// The kind of a wallet transaction moving `amounts`.
    public static func walletKind(_ amounts: [String: Int64]) -> String {
        amounts.values.allSatisfy { $0 > 0 } ? "deposit" : amounts.values.allSatisfy { $0 < 0 } ? "spend" : "adjust"
    }
}
