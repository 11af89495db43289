import Foundation

/// How both stores place and resolve a hold, decided from the hold as it is now: a hold is placed once, when what is
/// available covers it; a capture or void of an open hold applies; the same call again replays; anything else on a
/// resolved hold changes nothing. An open hold past its expiry is expired first, whoever asks. Pure: each store reads
/// under its lock, asks these rules, and writes what they answer in the same database transaction.
public enum WalletHoldRules {
    public enum Decision: Equatable, Sendable {
        case capture([String: Int64])
        case void
        /// Past its expiry but not swept yet: mark it expired, then answer `alreadyResolved`.
        case expire
        case replay
        case alreadyResolved
        case exceeds
    }

    /// The plan of placing `request` on a wallet holding `balances`, of which open holds reserve `held`: placed (the
    /// hold to write), replayed or in conflict with the hold `existing` of the same id, or refused.
    public static func place(
        _ request: WalletHold.Request, existing: WalletHold?, balances: [String: Int64], held: [String: Int64],
        now: Date
    ) throws(AmountError) -> WalletHold.Outcome {
        if let existing {
            let differing = existing.request.differences(from: request)
            return differing.isEmpty ? .replayed(existing) : .conflict(differing)
        }
        if let short = try shortfall(request.amounts, balances: balances, held: held) {
            return .insufficient(
                currency: short.currency, available: short.available, requested: request.amounts[short.currency] ?? 0)
        }
        let at = Date(millis: now.millis)
        return .placed(
            WalletHold(
                request: request, state: .open, captured: nil,
                expiresAt: at.addingTimeInterval(Double(request.expiresInSeconds)), createdAt: at, resolvedAt: nil))
    }

    /// A capture of `amounts` (all of the hold when `nil`).
    public static func capture(_ hold: WalletHold, amounts: [String: Int64]?, now: Date) -> Decision {
        let take = amounts ?? hold.request.amounts
        switch hold.state {
        case .captured: return hold.captured == take ? .replay : .alreadyResolved
        case .voided, .expired: return .alreadyResolved
        case .open:
            if hold.expiresAt <= now { return .expire }
            let fits =
                !take.isEmpty && take.allSatisfy { $0.value > 0 && $0.value <= hold.request.amounts[$0.key] ?? 0 }
            return fits ? .capture(take) : .exceeds
        }
    }

    public static func void(_ hold: WalletHold, now: Date) -> Decision {
        switch hold.state {
        case .voided: return .replay
        case .captured, .expired: return .alreadyResolved
        case .open: return hold.expiresAt <= now ? .expire : .void
        }
    }

    /// The wallet transaction a capture of `take` writes, leaving `balances` (before it) less `take`.
    public static func captureTransaction(
        _ hold: WalletHold, take: [String: Int64], balances: [String: Int64], cause: String, now: Date
    ) throws(AmountError) -> WalletTransaction {
        let request = WalletTransaction.Request(
            id: WalletHold.captureID(hold.request.id), userID: hold.request.userID,
            amounts: try Amounts(take).negated().values, reason: hold.request.reason, cause: cause)
        return WalletTransaction(
            request: request, balances: try WalletRules.after(request.amounts, from: balances),
            recordedAt: Date(millis: now.millis))
    }

    /// What open, unexpired holds reserve, summed per currency.
    public static func held(_ holds: [[String: Int64]]) throws(AmountError) -> [String: Int64] {
        try Amounts.sum(holds.map(Amounts.init)).values
    }

    /// The first currency `amounts` (to reserve or spend, positive) cannot take from what is available (the balance
    /// less what is held; a debt has nothing available).
    public static func shortfall(_ amounts: [String: Int64], balances: [String: Int64], held: [String: Int64])
        throws(AmountError) -> (currency: String, available: Int64)?
    {
        for (currency, amount) in amounts.sorted(by: { $0.key < $1.key }) where amount > 0 {
            let available = try Amounts.subtract(balances[currency] ?? 0, held[currency] ?? 0, currency: currency)
            if available < amount { return (currency, available) }
        }
        return nil
    }

    public static func audit(_ hold: WalletHold, event: String, cause: String, at: Date) -> AuditEvent {
        let amounts = (hold.captured ?? hold.request.amounts).sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
        return AuditEvent(
            at: at, subject: .hold, subjectID: hold.request.id, event: event, cause: cause,
            detail: "\(hold.request.userID) \(amounts.joined(separator: " ")): \(hold.request.reason)")
    }
}
