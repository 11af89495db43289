import Foundation
import PurserCore
import PurserStorage
import Testing

extension LedgerStoreConformance {
    /// The ledger check (`integrity()`) finds nothing in a ledger Purser wrote, and, with `corrupt`, finds each row
    /// broken on purpose under its rule: a credit's event, grants or audit record gone, a delivered order pointing
    /// nowhere, a wallet transaction's entries gone, a stored balance that is not its history's sum.
    public func checksItsOwnIntegrity() async throws {
        let clean = try await store.integrity()
        #expect(clean.findings.isEmpty, "\(clean.findings)")
        #expect(clean.creditedTransactions > 0 && clean.orders > 0)
        #expect(clean.totals["gold"] != nil)
        guard let corrupt else { return }
        try await drainUndispatched()
        for id in ["t-no-event", "t-no-grants", "t-no-audit"] { try await creditedEvent(id, user: "broken") }
        _ = try await store.applyWalletTransaction(
            WalletTransaction.Request(
                id: "w-no-entries", userID: "broken", amounts: ["gold": 5], reason: "r", cause: "admin"), now: now)
        let order = try await newOrder("broken")
        try await corrupt("DELETE FROM outbox WHERE idempotency_key = 't-no-event:credited'")
        try await corrupt("DELETE FROM grants WHERE transaction_id = 't-no-grants'")
        try await corrupt("DELETE FROM audit_log WHERE subject_id = 't-no-audit' AND event = 'credited'")
        try await corrupt(
            "UPDATE orders SET state = 'delivered', transaction_id = 't-nowhere' WHERE id = '\(order.id)'")
        try await corrupt(
            """
            DELETE FROM wallet_entries WHERE wallet_transaction_id =
                (SELECT id FROM wallet_transactions WHERE idempotency_id = 'w-no-entries')
            """)
        // The deletes above took their amounts back from the stored balances (the triggers); this one is no sum.
        try await corrupt("UPDATE balances SET low = low + 7 WHERE user_id = 'broken' AND currency = 'gold'")
        let broken = try await store.integrity()
        let found = Set(broken.findings.map { "\($0.rule) \($0.subject)" })
        #expect(
            found == [
                "credited_without_event t-no-event", "credited_without_grants t-no-grants",
                "credited_without_audit t-no-audit", "delivered_order_without_credit \(order.id)",
                "wallet_without_entries w-no-entries", "balance_row_differs broken gold",
            ], "\(broken.findings)")
    }
}
