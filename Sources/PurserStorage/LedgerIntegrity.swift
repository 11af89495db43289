import PurserCore

/// The ledger's own fsck (`purser ledger check`): what must hold between its tables whatever wrote them, checked by the
/// same SQL on both stores. Balances are stored (`LedgerBalances`) and must equal the sums of the grants and wallet
/// entries (`balance_row_differs`); the report gives their totals to compare a copy with its original.
public struct LedgerIntegrity: Hashable, Sendable, Codable {
    /// One row that breaks a rule.
    public struct Finding: Hashable, Sendable, Codable, CustomStringConvertible {
        /// The rule's code, e.g. `credited_without_event`.
        public var rule: String
        /// The row: a transaction id, an order id, a wallet id.
        public var subject: String

        public init(rule: String, subject: String) {
            self.rule = rule
            self.subject = subject
        }

        public var description: String { "\(rule) \(subject): \(Self.rules[rule] ?? rule)" }
        static let rules = Dictionary(
            uniqueKeysWithValues: LedgerIntegrity.checks.map { ($0.rule, $0.meaning) } + [
                (
                    "balance_out_of_range",
                    "a user's balance of a currency is beyond the wallet's range (±\(Amounts.walletLimit)), or beyond "
                        + "what a 64-bit integer holds: it was written before amounts were checked"
                ),
                ("total_out_of_range", "every user's balance of a currency adds up beyond a 64-bit integer"),
            ])
    }

    /// Every finding, by rule then subject (at most `perRule` of each rule).
    public var findings: [Finding]
    /// Rows looked at: credited transactions, orders, wallet transactions.
    public var creditedTransactions: Int
    public var orders: Int
    public var walletTransactions: Int
    /// Every balance summed per currency over all users (grants and wallet entries): a copy of the ledger has the same.
    public var totals: [String: Int64]
    /// Rows per table (every table of `tables`): a copy of the ledger has the same.
    public var rows: [String: Int]
    /// SHA-256 (hex) of every user's balance of every currency, sorted, without whose it is: a copy of the ledger has
    /// the same, and so has a ledger after an erasure, which renames a user but moves no money.
    public var balancesChecksum: String

    public init(
        findings: [Finding], creditedTransactions: Int, orders: Int, walletTransactions: Int, totals: [String: Int64],
        rows: [String: Int] = [:], balancesChecksum: String = ""
    ) {
        self.findings = findings
        self.creditedTransactions = creditedTransactions
        self.orders = orders
        self.walletTransactions = walletTransactions
        self.totals = totals
        self.rows = rows
        self.balancesChecksum = balancesChecksum
    }

    /// How many findings of one rule are listed.
    public static let perRule = 100

    /// A rule: its code, what a finding means, and the query (standard SQL both stores run) selecting one `subject`
    /// column per finding.
    struct Check: Sendable {
        let rule: String
        let meaning: String
        let query: String
    }

    /// Each row's amount in `SplitSum`'s two parts.
    private static let amountParts = SplitSum.parts("amount")

    static let checks: [Check] = [
        Check(
            rule: "credited_without_grants", meaning: "a credited transaction has no credit grant",
            query: """
                SELECT a.transaction_id AS subject FROM apple_transactions a WHERE a.state = 'credited'
                AND NOT EXISTS (SELECT 1 FROM grants g WHERE g.transaction_id = a.transaction_id AND g.kind = 'credit')
                """),
        Check(
            rule: "credited_without_event", meaning: "a credited transaction has no transaction.credited event",
            query: """
                SELECT a.transaction_id AS subject FROM apple_transactions a WHERE a.state = 'credited'
                AND NOT EXISTS (SELECT 1 FROM outbox o WHERE o.idempotency_key = a.transaction_id || ':credited')
                """),
        Check(
            rule: "credited_without_audit", meaning: "a credited transaction has no audit record of its credit",
            query: """
                SELECT a.transaction_id AS subject FROM apple_transactions a WHERE a.state = 'credited'
                AND NOT EXISTS (SELECT 1 FROM audit_log l WHERE l.subject = 'transaction'
                    AND l.subject_id = a.transaction_id AND l.event = 'credited')
                """),
        Check(
            rule: "credited_twice", meaning: "a transaction holds two credit grants of one currency",
            query: """
                SELECT transaction_id AS subject FROM grants WHERE kind = 'credit'
                GROUP BY transaction_id, currency HAVING COUNT(*) > 1
                """),
        Check(
            rule: "grant_to_another_user", meaning: "a credit grant is on another user than the transaction's owner",
            query: """
                SELECT DISTINCT g.transaction_id AS subject FROM grants g
                JOIN apple_transactions a ON a.transaction_id = g.transaction_id
                WHERE g.kind = 'credit' AND (a.owner_id IS NULL OR g.user_id <> a.owner_id)
                """),
        Check(
            rule: "grant_without_credit",
            meaning: "credit grants on a transaction that is neither credited nor revoked",
            query: """
                SELECT DISTINCT g.transaction_id AS subject FROM grants g
                LEFT JOIN apple_transactions a ON a.transaction_id = g.transaction_id
                WHERE g.kind = 'credit' AND (a.transaction_id IS NULL OR a.state NOT IN ('credited', 'revoked'))
                """),
        Check(
            rule: "delivered_order_without_credit",
            meaning: "a delivered order's transaction is missing, not credited, or another user's",
            query: """
                SELECT o.id AS subject FROM orders o
                LEFT JOIN apple_transactions a ON a.transaction_id = o.transaction_id
                WHERE o.state = 'delivered' AND (a.transaction_id IS NULL OR a.state NOT IN ('credited', 'revoked')
                    OR a.owner_id IS NULL OR a.owner_id <> o.user_id)
                """),
        Check(
            rule: "wallet_without_entries", meaning: "a wallet transaction has no entries",
            query: """
                SELECT w.idempotency_id AS subject FROM wallet_transactions w
                LEFT JOIN wallet_entries e ON e.wallet_transaction_id = w.id WHERE e.wallet_transaction_id IS NULL
                """),
        Check(
            rule: "wallet_without_event", meaning: "a wallet transaction has no wallet.changed event",
            query: """
                SELECT w.idempotency_id AS subject FROM wallet_transactions w
                WHERE NOT EXISTS (SELECT 1 FROM outbox o WHERE o.idempotency_key = 'wallet:' || w.id)
                """),
        Check(
            rule: "entries_of_another_user", meaning: "a wallet entry is on another user than its transaction's",
            query: """
                SELECT DISTINCT w.idempotency_id AS subject FROM wallet_entries e
                JOIN wallet_transactions w ON w.id = e.wallet_transaction_id WHERE e.user_id <> w.user_id
                """),
        Check(
            rule: "balance_row_differs",
            meaning: "a user's stored balance of a currency is not the sum of their grants and wallet entries",
            query: """
                SELECT user_id || ' ' || currency AS subject FROM (
                    SELECT user_id, currency, SUM(high) AS high, SUM(low) AS low FROM (
                        SELECT user_id, currency, \(amountParts.high) AS high, \(amountParts.low) AS low FROM grants
                        UNION ALL SELECT user_id, currency, \(amountParts.high), \(amountParts.low) FROM wallet_entries
                        UNION ALL SELECT user_id, currency, -high, -low FROM balances) AS e
                    GROUP BY user_id, currency) AS d
                WHERE high <> 0 OR low <> 0
                """),
    ]

    /// The counts and totals, one row of `rows`, `kind` `total`, per currency.
    static let countsQuery = """
        SELECT 'count' AS kind, 'credited' AS name, COUNT(*) AS amount FROM apple_transactions WHERE state = 'credited'
        UNION ALL SELECT 'count', 'orders', COUNT(*) FROM orders
        UNION ALL SELECT 'count', 'wallet', COUNT(*) FROM wallet_transactions
        UNION ALL SELECT 'total_high', currency, \(SplitSum.sums("amount").high) FROM (
            SELECT currency, amount FROM grants UNION ALL SELECT currency, amount FROM wallet_entries) AS e
        GROUP BY currency
        UNION ALL SELECT 'total_low', currency, \(SplitSum.sums("amount").low) FROM (
            SELECT currency, amount FROM grants UNION ALL SELECT currency, amount FROM wallet_entries) AS e
        GROUP BY currency
        """ + tables.map { " UNION ALL SELECT 'rows', '\($0)', COUNT(*) FROM \($0)" }.joined()

    /// The report from each check's subjects (`subjects[i]` for `checks[i]`), the counts' rows and every balance
    /// (`balancesQuery`'s rows). A balance outside the wallet's range (`Amounts.walletLimit`), or beyond `Int64`
    /// altogether, is a `balance_out_of_range` finding naming the user and the currency; a currency whose total
    /// leaves `Int64` is left out of `totals` and found as `total_out_of_range`.
    static func report(
        subjects: [[String]], counts: [(kind: String, name: String, amount: Int64)], balances: [SplitBalance]
    ) -> LedgerIntegrity {
        var findings: [Finding] = []
        for (check, found) in zip(checks, subjects) {
            findings += found.sorted().prefix(perRule).map { Finding(rule: check.rule, subject: $0) }
        }
        var number: [String: Int] = [:]
        var parts: [String: (high: Int64, low: Int64)] = [:]
        var rows: [String: Int] = [:]
        for row in counts {
            switch row.kind {
            case "count": number[row.name] = Int(row.amount)
            case "rows": rows[row.name] = Int(row.amount)
            case "total_high": parts[row.name, default: (0, 0)].high = row.amount
            default: parts[row.name, default: (0, 0)].low = row.amount
            }
        }
        var totals: [String: Int64] = [:]
        for (currency, part) in parts.sorted(by: { $0.key < $1.key }) {
            if let total = try? SplitSum.total(high: part.high, low: part.low, currency: currency) {
                totals[currency] = total
            } else {
                findings.append(Finding(rule: "total_out_of_range", subject: currency))
            }
        }
        var outOfRange: [String] = []
        var lines: [String] = []
        for balance in balances {
            guard let amount = try? SplitSum.total(high: balance.high, low: balance.low, currency: balance.currency)
            else {
                outOfRange.append("\(balance.user) \(balance.currency): beyond ±\(Int64.max)")
                lines.append("\(balance.currency) \(balance.high)×2^32+\(balance.low)\n")
                continue
            }
            if amount < -Amounts.walletLimit || amount > Amounts.walletLimit {
                outOfRange.append("\(balance.user) \(balance.currency): \(amount)")
            }
            lines.append("\(balance.currency) \(amount)\n")
        }
        findings += outOfRange.sorted().prefix(perRule).map { Finding(rule: "balance_out_of_range", subject: $0) }
        return LedgerIntegrity(
            findings: findings, creditedTransactions: number["credited"] ?? 0, orders: number["orders"] ?? 0,
            walletTransactions: number["wallet"] ?? 0, totals: totals, rows: rows,
            balancesChecksum: checksum(of: lines))
    }

    /// One user's balance of one currency as `balancesQuery` reads it (`SplitSum`'s two parts).
    struct SplitBalance {
        var user: String
        var currency: String
        var high: Int64
        var low: Int64
    }
}
