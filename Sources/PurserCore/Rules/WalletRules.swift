import Foundation

/// How a spend or deposit applies, as a pure function both ledger stores call inside the database transaction that
/// holds the user's balance still (SQLite's one writer, PostgreSQL's balance lock): the outcome is the plan, and an
/// `applied` one is written whole (the row, its entries, its `wallet.changed` event and its audit record).
public enum WalletRules {
    /// The plan of `request` on a wallet holding `balances`, of which open holds reserve `held`, when the ledger
    /// already holds `existing` under the request's id: a replay or a conflict when it does; otherwise applied
    /// when every spend fits what is available, or refused for the first currency that does not.
    /// - Throws: `AmountError` when a balance afterwards would leave the wallet's range (`Amounts.walletLimit`).
    public static func plan(
        _ request: WalletTransaction.Request, existing: WalletTransaction?, balances: [String: Int64],
        held: [String: Int64], now: Date
    ) throws(AmountError) -> WalletTransaction.Outcome {
        if let existing {
            let differing = existing.request.differences(from: request)
            return differing.isEmpty ? .replayed(existing) : .conflict(differing)
        }
        let spent = try Amounts(request.amounts).filter { $0 < 0 }.negated()
        if let short = try WalletHoldRules.shortfall(spent.values, balances: balances, held: held) {
            return .insufficient(currency: short.currency, balance: short.available, requested: spent[short.currency])
        }
        return .applied(
            WalletTransaction(
                request: request, balances: try after(request.amounts, from: balances),
                recordedAt: Date(millis: now.millis)))
    }

    /// The balances of `amounts`' currencies after them, from `balances` before: each within the wallet's range.
    public static func after(_ amounts: [String: Int64], from balances: [String: Int64]) throws(AmountError)
        -> [String: Int64]
    {
        var after: [String: Int64] = [:]
        for (currency, amount) in amounts {
            after[currency] = try Amounts.add(balances[currency] ?? 0, amount, currency: currency)
        }
        try Amounts(after).checkWithinWallet("the balance")
        return after
    }

    /// The audit record of an applied request: `deposited`, `spent`, or `adjusted` when it does both.
    public static func audit(_ change: WalletTransaction) -> AuditEvent {
        let request = change.request
        let amounts = request.amounts.values
        let event = amounts.allSatisfy { $0 > 0 } ? "deposited" : amounts.allSatisfy { $0 < 0 } ? "spent" : "adjusted"
        let moved = request.amounts.sorted { $0.key < $1.key }.map { "\($0.key)\($0.value < 0 ? "" : "+")\($0.value)" }
        return AuditEvent(
            at: change.recordedAt, subject: .wallet, subjectID: request.id, event: event, cause: request.cause,
            detail: "\(request.userID) \(moved.joined(separator: " ")): \(request.reason)")
    }
}
