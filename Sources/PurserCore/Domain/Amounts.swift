/// Money: whole amounts per currency (virtual currencies such as `gold`, entitlements), whose arithmetic cannot trap.
///
/// Every sum, difference, negation and product of amounts, grants, quantities and balances goes through this type's
/// operations, which use the standard library's `…ReportingOverflow` and throw `AmountError` instead of trapping: a
/// request whose arithmetic would overflow is refused with nothing written, and one request can never stop the
/// process. Raw `+`, `*`, `abs` and unary `-` on money appear nowhere else.
public struct Amounts: Hashable, Sendable, Codable {
    /// The amount of each currency; a currency not listed is 0.
    public private(set) var values: [String: Int64]

    public init(_ values: [String: Int64] = [:]) { self.values = values }

    public static let zero = Amounts()

    /// The largest balance, and the largest amount of one currency in one change, a wallet holds: 2^53 − 1, the
    /// largest integer every JSON reader (JavaScript's numbers among them) carries exactly.
    public static let walletLimit: Int64 = 9_007_199_254_740_991

    /// The amount of `currency`, 0 when absent.
    public subscript(currency: String) -> Int64 { values[currency] ?? 0 }

    public var isEmpty: Bool { values.isEmpty }

    /// Sorted (currency, amount) pairs, for deterministic storage and output.
    public var sorted: [(currency: String, amount: Int64)] {
        values.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }

    /// The amounts of both, added per currency.
    public func adding(_ other: Amounts) throws(AmountError) -> Amounts {
        var result = values
        for (currency, amount) in other.values {
            result[currency] = try Self.add(result[currency] ?? 0, amount, currency: currency)
        }
        return Amounts(result)
    }

    /// These amounts less `other`'s, per currency.
    public func subtracting(_ other: Amounts) throws(AmountError) -> Amounts {
        try adding(other.negated())
    }

    /// Every amount negated (a spend from a deposit's amounts, a revoke from a credit's).
    public func negated() throws(AmountError) -> Amounts {
        var result: [String: Int64] = [:]
        for (currency, amount) in values { result[currency] = try Self.negate(amount, currency: currency) }
        return Amounts(result)
    }

    /// Every amount times `factor` (a grant for `quantity` units).
    public func times(_ factor: Int) throws(AmountError) -> Amounts {
        var result: [String: Int64] = [:]
        for (currency, amount) in values {
            result[currency] = try Self.multiply(amount, by: factor, currency: currency)
        }
        return Amounts(result)
    }

    /// Only the currencies whose amount satisfies `isIncluded`.
    public func filter(_ isIncluded: (Int64) -> Bool) -> Amounts {
        Amounts(values.filter { isIncluded($0.value) })
    }

    /// The sum of `parts`, per currency.
    public static func sum(_ parts: some Sequence<Amounts>) throws(AmountError) -> Amounts {
        var total = Amounts.zero
        for part in parts { total = try total.adding(part) }
        return total
    }

    /// `a + b` for one currency, or `AmountError` when it leaves `Int64`.
    public static func add(_ a: Int64, _ b: Int64, currency: String) throws(AmountError) -> Int64 {
        let (sum, overflow) = a.addingReportingOverflow(b)
        guard !overflow else { throw AmountError(currency: currency, operation: "\(a) + \(b)") }
        return sum
    }

    /// `a − b` for one currency, or `AmountError` when it leaves `Int64`.
    public static func subtract(_ a: Int64, _ b: Int64, currency: String) throws(AmountError) -> Int64 {
        let (difference, overflow) = a.subtractingReportingOverflow(b)
        guard !overflow else { throw AmountError(currency: currency, operation: "\(a) − \(b)") }
        return difference
    }

    /// `−a` for one currency (`Int64.min` has no negation).
    public static func negate(_ a: Int64, currency: String) throws(AmountError) -> Int64 {
        try subtract(0, a, currency: currency)
    }

    /// `a × factor` for one currency, or `AmountError` when it leaves `Int64`.
    public static func multiply(_ a: Int64, by factor: Int, currency: String) throws(AmountError) -> Int64 {
        let (product, overflow) = a.multipliedReportingOverflow(by: Int64(factor))
        guard !overflow else { throw AmountError(currency: currency, operation: "\(a) × \(factor)") }
        return product
    }

    /// The magnitude of `a`, or `AmountError` for `Int64.min`, whose magnitude `Int64` cannot hold.
    public static func magnitude(_ a: Int64, currency: String) throws(AmountError) -> Int64 {
        a < 0 ? try negate(a, currency: currency) : a
    }

    /// Throws unless every amount lies within ±`walletLimit` (the range a balance or one change may take).
    public func checkWithinWallet(_ what: String = "a balance") throws(AmountError) {
        for (currency, amount) in sorted where amount < -Self.walletLimit || amount > Self.walletLimit {
            throw AmountError(
                currency: currency,
                message:
                    "\(what) of \(currency.echoed) would be \(amount), outside the wallet's range of ±\(Self.walletLimit)"
            )
        }
    }

    public init(from decoder: any Decoder) throws {
        values = try decoder.singleValueContainer().decode([String: Int64].self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(values)
    }
}

/// Arithmetic on amounts that would overflow, or leave the wallet's range: refused, with the stable code
/// `amount_out_of_range`, and nothing written.
public struct AmountError: Error, Hashable, Sendable, CustomStringConvertible {
    /// `amount_out_of_range`.
    public static let code = "amount_out_of_range"
    /// The currency whose amount is out of range.
    public var currency: String
    public var message: String

    public init(currency: String, message: String) {
        self.currency = currency
        self.message = message
    }

    init(currency: String, operation: String) {
        self.init(
            currency: currency,
            message: "\(currency.echoed): \(operation) is outside the range of an amount (±\(Int64.max))")
    }

    public var description: String { message }
}
