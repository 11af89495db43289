import AppStoreSimulator
import AppStoreVerification
import PurserCore
import PurserStorage

/// Checks the invariants (Chaos.md) after healing, against the simulator's own record of what Apple charged and
/// refunded and the harness's record of who bought what; and, for Purser, that the game backend fed by webhooks holds
/// the ledger's balance for every user.
struct InvariantChecker {
    let appStore: SimulatedAppStore
    let ledger: any LedgerView
    let record: ChaosRecord
    let users: [String]
    /// The game backend that Purser's webhooks reach (Purser only): its balances must equal the ledger's.
    var gameBackend: GameBackend? = nil
    /// Purser only: the ledger's wallet history and the game backend that spent through the admin API.
    var wallet: (store: any LedgerStore, spender: SpendingBackend)? = nil
    /// The app whose purchases these are (a studio run checks each app on its own); `nil`: every purchase.
    var app: String? = nil

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
            if let share = apple.transaction.appleTransaction().revokedShare {
                if !credits.isEmpty {
                    let refunded = RefundRules.percentText(share)
                    found.append(
                        violation(.creditedWithoutCharge, "\(refunded) refunded by Apple, still credited to \(credits)")
                    )
                } else if share < RefundRules.whole {
                    found += try await partlyRefunded(charge, share: share, grant: grant, explained: &explained)
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
        // balance larger than the account's credited transactions, less what the game backend spent.
        for user in users {
            let taken = wallet?.spender.taken(from: user) ?? 0
            let surplus = try await ledger.balance(of: user) + taken - explained[user, default: 0]
            if surplus > 0 {
                found.append(
                    Violation(
                        kind: .doubled, transactionID: "balance:\(user)",
                        detail: "\(user) holds \(surplus) gold more than its credited transactions give, less spends",
                        purchase: nil))
            }
        }
        if let wallet {
            found += try await walletViolations(explained: explained, store: wallet.store, spender: wallet.spender)
        }
        if let gameBackend {
            let app = app ?? ChaosServer.bundleID
            for user in users {
                let (ledgerBalance, backendBalance) = (
                    try await ledger.balance(of: user), gameBackend.balance(of: user, app: app)
                )
                guard ledgerBalance != backendBalance else { continue }
                found.append(
                    Violation(
                        kind: .gameBackendDiffers, transactionID: "balance:\(user)",
                        detail:
                            "the game backend holds \(backendBalance) gold for \(user), the ledger \(ledgerBalance)",
                        purchase: nil))
            }
            for reused in gameBackend.reusedIDs(app: app) {
                found.append(
                    Violation(
                        kind: .webhookIDReused, transactionID: reused.id,
                        detail: "one webhook-id arrived with two bodies: \(reused.first), then \(reused.second)",
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
            let apple = await appStore.purchase(transactionID: transactionID)?.transaction
            guard apple?.revocationDate == nil, app == nil || apple?.bundleId == app else { continue }
            found.append(
                Violation(
                    kind: .finishedBeforeDecision, transactionID: transactionID,
                    detail: "the server finished it at Apple, yet the ledger credits it to nobody",
                    purchase: record.charge(transactionID)?.purchase))
        }
        return found
    }

    /// A purchase Apple refunded in part: the buyer keeps `grant − floor(grant × share / 100000)`, so the ledger
    /// must have credited the buyer and revoked exactly Apple's share.
    private func partlyRefunded(
        _ charge: ChaosRecord.Charge, share: Int, grant: Int64, explained: inout [String: Int64]
    ) async throws -> [Violation] {
        func violation(_ kind: Violation.Kind, _ detail: String) -> Violation {
            Violation(kind: kind, transactionID: charge.transactionID, detail: detail, purchase: charge.purchase)
        }
        let refunded = RefundRules.percentText(share)
        guard let revocation = try await ledger.revocation(of: charge.transactionID) else {
            let state = try await ledger.state(of: charge.transactionID)
            let detail = "\(charge.buyer) paid for \(charge.productID), \(refunded) refunded; server: \(state)"
            return [violation(.lost, detail)]
        }
        explained[revocation.owner, default: 0] += grant - RefundRules.revokedAmount(of: grant, share: share)
        var found: [Violation] = []
        if revocation.share != share {
            let revoked = RefundRules.percentText(revocation.share)
            found.append(
                violation(.creditedWithoutCharge, "Apple refunded \(refunded), the ledger revoked \(revoked)"))
        }
        if revocation.owner != charge.buyer {
            found.append(violation(.misattributed, "bought by \(charge.buyer), credited to \(revocation.owner)"))
        }
        return found
    }

    /// Gold per product, from the catalog both strategies sell.
    static func amount(of productID: String) -> Int64 {
        ChaosServer.catalog.product(productID)?.grants.amounts["gold"] ?? 0
    }
}
