import PurserCore

/// How much of one purchase's grant its owner has spent, first in, first out: the currency spent after the purchase
/// (spends and hold captures through the wallet API) takes first what the wallet held before it, then the grant, then
/// anything credited later. What Apple's CONSUMPTION_REQUEST asks; a refund of an earlier purchase takes back its own
/// units, so it shrinks what was held before.
enum SpentFirstInFirstOut {
    /// The consumed share of `grants`, the grant of `transactionID`, in milliunits (100000 is all of it), the largest
    /// over its currencies, rounded down; nil when `history` (oldest first) holds no credit of `transactionID`.
    static func consumedShare(
        of transactionID: String, grants: Grants, history: [WalletHistoryEntry]
    ) -> Int? {
        guard history.contains(where: { $0.kind == "credit" && $0.reference == transactionID }) else { return nil }
        var share = 0
        for (currency, amount) in grants.amounts where amount > 0 {
            let taken = spentOfGrant(transactionID, currency: currency, amount: amount, history: history)
            share = max(share, Int((Double(taken) / Double(amount) * 100_000).rounded(.down)))
        }
        return share
    }

    /// The units of `currency` of the grant (`amount`) spent since it was credited.
    private static func spentOfGrant(
        _ transactionID: String, currency: String, amount: Int64, history: [WalletHistoryEntry]
    ) -> Int64 {
        var heldBefore: Int64 = 0
        var earlierCredits: Set<String> = []
        var credited = false
        var spentSince: Int64 = 0
        for entry in history {
            let change = entry.amounts[currency] ?? 0
            if !credited {
                if entry.kind == "credit", entry.reference == transactionID {
                    credited = true
                    continue
                }
                heldBefore += change
                if entry.kind == "credit" { earlierCredits.insert(entry.reference) }
                continue
            }
            switch entry.kind {
            case "spend", "adjust":
                if change < 0 { spentSince -= change }
            case "revoke", "restore":
                if earlierCredits.contains(entry.reference) { heldBefore += change }
            default:
                break
            }
        }
        return min(max(spentSince - max(heldBefore, 0), 0), amount)
    }
}
