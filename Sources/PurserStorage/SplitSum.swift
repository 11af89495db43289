import PurserCore

/// A sum of amounts that no ledger can overflow while it adds: SQL sums each amount's high 32 bits (sign-extended)
/// and low 32 bits apart, which stays inside 64 bits for billions of rows on both stores (SQLite's `SUM` stops with
/// "integer overflow", PostgreSQL's cast back to `BIGINT` with "out of range"), and Swift puts the two together with
/// `Amounts`' checked arithmetic. So a ledger that holds an out-of-range balance (written before money was a type)
/// still reads, and says which balance it is, instead of failing every query that sums it.
enum SplitSum {
    /// The two sums of `expression`, as `NAME_high` and `NAME_low`, in SQL both stores run.
    static func columns(_ expression: String, as name: String) -> String {
        let (high, low) = sums(expression)
        return "\(high) AS \(name)_high, \(low) AS \(name)_low"
    }

    /// The two sums of `expression`, unnamed.
    static func sums(_ expression: String) -> (high: String, low: String) {
        let (high, low) = parts(expression)
        return ("CAST(SUM(\(high)) AS BIGINT)", "CAST(SUM(\(low)) AS BIGINT)")
    }

    /// One amount's two parts: its high 32 bits (sign-extended) and its low 32 bits, which the sums add (and the
    /// stored balances, `LedgerBalances`, keep).
    static func parts(_ expression: String) -> (high: String, low: String) {
        ("(\(expression)) >> 32", "(\(expression)) & 4294967295")
    }

    /// The sum the two parts make: `high × 2^32 + low`; `AmountError` when it leaves `Int64`.
    static func total(high: Int64, low: Int64, currency: String) throws(AmountError) -> Int64 {
        try Amounts.add(try Amounts.multiply(high, by: 1 << 32, currency: currency), low, currency: currency)
    }
}
