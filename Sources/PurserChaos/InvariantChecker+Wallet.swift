import PurserCore
import PurserStorage

extension InvariantChecker {
    /// The wallet invariants, for each user: the balance is what its history adds up to (credits − revokes +
    /// restores + deposits − spends − captures) and what the purchases and the spending game backend explain
    /// (`explained` − what the backend was told it took); no wallet id applied twice, in the ledger or in the answers;
    /// no spend below 0 (by the balance it recorded); and every backend request answered.
    func walletViolations(
        explained: [String: Int64], store: any LedgerStore, spender: SpendingBackend
    ) async throws -> [Violation] {
        var found: [Violation] = []
        func violation(_ kind: Violation.Kind, _ subject: String, _ detail: String) {
            found.append(Violation(kind: kind, transactionID: subject, detail: detail, purchase: nil))
        }
        for user in users {
            let history = try await store.walletHistory(of: UserID(user))
            let balance = try await ledger.balance(of: user)
            var running: Int64 = 0
            var applications: [String: Int] = [:]
            for entry in history {
                let gold = entry.amounts["gold"] ?? 0
                running += gold
                guard ["spend", "adjust", "deposit"].contains(entry.kind) else { continue }
                applications[entry.reference, default: 0] += 1
                // The floor as the ledger decided it, in commit order: the balance the spend recorded. A replay by
                // time can put a spend before a credit that committed first (its request waited out a failover).
                if gold < 0, !entry.reference.hasPrefix("hold:"), let left = entry.balances?["gold"], left < 0 {
                    violation(.belowFloor, entry.reference, "the spend left \(user) with \(left) gold")
                }
            }
            for (id, count) in applications.sorted(by: { $0.key < $1.key }) where count > 1 {
                violation(.appliedTwice, id, "\(user)'s wallet history holds it \(count) times")
            }
            if running != balance {
                violation(
                    .walletBalanceDiffers, "balance:\(user)",
                    "\(user)'s history adds up to \(running) gold, the ledger's balance is \(balance)")
            }
            let expected = explained[user, default: 0] - spender.taken(from: user)
            if balance < expected {
                violation(
                    .walletBalanceDiffers, "balance:\(user)",
                    "\(user) holds \(balance) gold; the credited purchases less what the game backend was told it "
                        + "spent leave \(expected)")
            }
        }
        for (id, count) in spender.appliedTwice.sorted(by: { $0.key < $1.key }) {
            violation(.appliedTwice, id, "\(count) answers said it applied now (not replayed)")
        }
        // The ledger's own fsck, as `purser ledger check` runs it.
        for finding in try await store.integrity().findings {
            violation(.ledgerCheck, finding.subject, finding.description)
        }
        let unanswered = spender.tally.unanswered
        if unanswered > 0 {
            violation(.walletUnanswered, "wallet", "\(unanswered) game backend requests never got an answer")
        }
        return found
    }
}
