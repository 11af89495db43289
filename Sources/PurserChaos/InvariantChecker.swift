import AppStoreSimulator
import AppStoreVerification
import PurserCore

/// Checks DESIGN.md's invariants 1–5 after healing, against the simulator's own record of what Apple charged and
/// refunded and the harness's record of who bought what; and, for Purser, that the game backend fed by webhooks holds
/// the ledger's balance for every user.
struct InvariantChecker {
    let appStore: SimulatedAppStore
    let ledger: any LedgerView
    let record: ChaosRecord
    let users: [String]
    /// The game backend that Purser's webhooks reach (Purser only): its balances must equal the ledger's.
    var gameBackend: GameBackend? = nil

    func violations() async throws -> [Violation] {
        var found: [Violation] = []
        var explained: [String: Int64] = [:]
        for charge in record.charges {
            let grant = Self.amount(of: charge.productID)
            let credits = try await ledger.credits(of: charge.transactionID)
            for owner in credits { explained[owner, default: 0] += grant }
            func violation(_ kind: Violation.Kind, _ detail: String) -> Violation {
                Violation(kind: kind, transactionID: charge.transactionID, detail: detail, purchase: charge.purchase)
            }
            guard let apple = await appStore.purchase(transactionID: charge.transactionID) else {
                found.append(violation(.creditedWithoutCharge, "the harness saw a charge Apple has no record of"))
                continue
            }
            if apple.transaction.revocationDate != nil {
                if !credits.isEmpty {
                    found.append(violation(.creditedWithoutCharge, "refunded by Apple, still credited to \(credits)"))
                }
                continue
            }
            if credits.isEmpty {
                let state = try await ledger.state(of: charge.transactionID)
                found.append(violation(.lost, "\(charge.buyer) paid for \(charge.productID); server: \(state)"))
                continue
            }
            if credits.count > 1 {
                found.append(violation(.doubled, "credited \(credits.count) times: \(credits)"))
            }
            for owner in Set(credits) where owner != charge.buyer {
                found.append(violation(.misattributed, "bought by \(charge.buyer), credited to \(owner)"))
            }
        }
        for forged in record.forgedTransactionIDs where try await !ledger.credits(of: forged).isEmpty {
            found.append(
                Violation(
                    kind: .creditedWithoutCharge, transactionID: forged,
                    detail: "a forged submission was credited", purchase: nil))
        }
        // Credits the per-transaction view cannot see (a store that wrote one transaction twice) show up as a
        // balance larger than the account's credited transactions.
        for user in users {
            let surplus = try await ledger.balance(of: user) - explained[user, default: 0]
            if surplus > 0 {
                found.append(
                    Violation(
                        kind: .doubled, transactionID: "balance:\(user)",
                        detail: "\(user) holds \(surplus) gold more than its credited transactions give",
                        purchase: nil))
            }
        }
        if let gameBackend {
            for user in users {
                let (ledgerBalance, backendBalance) = (
                    try await ledger.balance(of: user), gameBackend.balance(of: user)
                )
                guard ledgerBalance != backendBalance else { continue }
                found.append(
                    Violation(
                        kind: .gameBackendDiffers, transactionID: "balance:\(user)",
                        detail:
                            "the game backend holds \(backendBalance) gold for \(user), the ledger \(ledgerBalance)",
                        purchase: nil))
            }
        }
        for (transactionID, ledger) in record.earlyFinishes.sorted(by: { $0.key < $1.key }) {
            found.append(
                Violation(
                    kind: .finishedBeforeDecision, transactionID: transactionID,
                    detail: "the app finished it before the server recorded a decision (ledger: \(ledger))",
                    purchase: record.charge(transactionID)?.purchase))
        }
        // Finish is safe on the server's side too: it finishes at Apple only what the ledger credited.
        for transactionID in appStore.finishedByServer.snapshot.sorted()
        where try await ledger.credits(of: transactionID).isEmpty {
            guard await appStore.purchase(transactionID: transactionID)?.transaction.revocationDate == nil else {
                continue
            }
            found.append(
                Violation(
                    kind: .finishedBeforeDecision, transactionID: transactionID,
                    detail: "the server finished it at Apple, yet the ledger credits it to nobody",
                    purchase: record.charge(transactionID)?.purchase))
        }
        return found
    }

    /// Gold per product, from the catalog both strategies sell.
    static func amount(of productID: String) -> Int64 {
        ChaosServer.catalog.product(productID)?.grants.amounts["gold"] ?? 0
    }
}
