import Foundation
import PurserCore
import PurserStorage

extension LedgerUpgradeCheck {
    /// Today's store writes over the rows earlier releases left, after every read: a deposit to each declared user
    /// (its wallet.changed event takes the user's next sequence, so a sequence the upgrade left behind conflicts), a
    /// support credit of each unbound transaction, a whole refund of each credited one and a reversal of each revoked
    /// one, then the keys', operators' and grants' writes (`accessWritesAfterTheUpgrade`). Each applies, the ledger
    /// check still holds, and every balance still equals its history.
    func writesAfterTheUpgrade() async throws -> [String] {
        var problems: [String] = []
        var users = Set(expectations.filter { $0.kind == "balance" }.compactMap(\.arguments.first))
        for user in users.sorted() {
            let request = WalletTransaction.Request(
                id: "upgrade-check-\(user)", userID: UserID(user), amounts: ["upgrade-check": 1],
                reason: "written after the upgrade", cause: "admin")
            await attempt("a deposit to \(user)", into: &problems) {
                guard case .applied = try await store.applyWalletTransaction(request, now: now) else { return false }
                return true
            }
        }
        let support = UserID("upgrade-check")
        users.insert(support.rawValue)
        for id in expectations.filter({ $0.kind == "unbound" }).flatMap(\.arguments) {
            await attempt("a support credit of \(id)", into: &problems) {
                guard let record = try await store.transaction(id) else { return false }
                let product = ProductDefinition(
                    id: record.transaction.productID, type: .consumable, grants: Grants(["upgrade-check": 1]))
                let settlement = try await store.settle(
                    Submission(
                        transaction: record.transaction, assessment: .creditable(product),
                        source: .support(operator: "ops", user: support, reason: "after the upgrade")),
                    now: now)
                return settlement.record?.state == .credited
            }
        }
        for expectation in expectations where expectation.kind == "state" && expectation.arguments.count == 2 {
            let (id, state) = (expectation.arguments[0], expectation.arguments[1])
            guard let record = try await store.transaction(id), record.ownerID != nil else { continue }
            await attempt("a refund or reversal of \(id) (\(state))", into: &problems) {
                let outcome =
                    state == "credited"
                    ? try await store.revoke(transactionID: id, revocationDate: now, cause: "upgrade-check", now: now)
                    : try await store.restore(transactionID: id, cause: "upgrade-check", now: now)
                guard case .applied = outcome else { return state != "credited" && state != "revoked" }
                return true
            }
        }
        problems += await accessWritesAfterTheUpgrade()
        problems += try await store.integrity().findings.map { "ledger check after writing: \($0)" }
        for user in users.sorted() {
            let balances = try await store.balances(of: UserID(user)).filter { $0.value != 0 }
            var summed: [String: Int64] = [:]
            for entry in try await store.walletHistory(of: UserID(user)) {
                for (currency, amount) in entry.amounts { summed[currency, default: 0] += amount }
            }
            if summed.filter({ $0.value != 0 }) != balances {
                problems.append("after writing, \(user)'s history adds up to \(summed), the balances are \(balances)")
            }
        }
        return problems
    }

    /// Runs one write; a `false` or an error is a problem named `what`.
    func attempt(_ what: String, into problems: inout [String], _ write: () async throws -> Bool) async {
        do {
            if try await !write() { problems.append("\(what) after the upgrade did not apply") }
        } catch {
            problems.append("\(what) after the upgrade failed: \(String(reflecting: error))")
        }
    }
}
