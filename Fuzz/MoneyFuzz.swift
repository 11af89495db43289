import Foundation
import PurserCore

/// Money at every edge: the input is a list of 64-bit amounts (little-endian, 8 bytes each) that feed `Amounts`'
/// arithmetic, grants times a quantity, the refund rules and the wallet and hold rules, as a request or a ledger's
/// balances would. None may trap; each result is the exact one or an `AmountError`, and a few identities hold. The
/// seeds (`scripts/fuzz/corpus.py`) are `Int64`'s bounds, 0, ±1, the wallet's limit and 2^53 neighbours.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMoney(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    withInput(start, count) { bytes in
        var values: [Int64] = []
        var index = 0
        while index + 8 <= bytes.count {
            var value: UInt64 = 0
            for offset in 0..<8 { value |= UInt64(bytes[index + offset]) << (8 * UInt64(offset)) }
            values.append(Int64(bitPattern: value))
            index += 8
        }
        guard values.count >= 2 else { return }
        let (a, b) = (values[0], values[1])
        if let sum = try? Amounts.add(a, b, currency: "gold") {
            FuzzSupport.require((try? Amounts.subtract(sum, b, currency: "gold")) == a, "(a + b) − b == a")
        } else {
            FuzzSupport.require(a.addingReportingOverflow(b).overflow, "an add that fits was refused")
        }
        _ = try? Amounts.negate(a, currency: "gold")
        _ = try? Amounts.magnitude(a, currency: "gold")
        let quantity = Int(truncatingIfNeeded: b % 64)
        _ = try? Grants(["gold": a, "gems": b]).times(quantity)
        let amounts = Amounts(Dictionary(uniqueKeysWithValues: values.prefix(8).enumerated().map { ("c\($0)", $1) }))
        _ = try? amounts.negated()
        _ = try? amounts.adding(amounts)
        _ = try? Amounts.sum([amounts, amounts, amounts])
        _ = try? amounts.checkWithinWallet()

        // The refund rules: a share of a grant, revoked down to a balance.
        let share = Int(truncatingIfNeeded: b) % (RefundRules.whole + 1)
        let revoked = RefundRules.revokedAmount(of: a, share: abs(share))
        FuzzSupport.require(a <= 0 || (revoked >= 0 && revoked <= a), "a revoke takes at most the grant")
        _ = try? RefundRules.revoke(
            grants: Grants(["gold": a]), from: 0, to: abs(share), balances: ["gold": values.last ?? 0])

        // The wallet's and holds' rules, with every value as a request's amount, a balance and what is held.
        let now = Date(timeIntervalSince1970: 1_704_067_200)
        let request = WalletTransaction.Request(
            id: "w", userID: "u", amounts: ["gold": a], reason: "fuzz", cause: "admin")
        let balance = values.count > 2 ? values[2] : b
        if case .applied(let change) = try? WalletRules.plan(
            request, existing: nil, balances: ["gold": balance], held: ["gold": b], now: now)
        {
            FuzzSupport.require(
                abs(Double(change.balances["gold"] ?? 0)) <= Double(Amounts.walletLimit),
                "an applied change leaves a balance within the wallet's range")
        }
        _ = try? WalletHoldRules.shortfall(["gold": a], balances: ["gold": balance], held: ["gold": b])
        _ = try? WalletHoldRules.held([["gold": a], ["gold": b], ["gold": balance]])
        _ = try? WalletHold.available(balances: ["gold": balance], held: ["gold": a])
    }
}
