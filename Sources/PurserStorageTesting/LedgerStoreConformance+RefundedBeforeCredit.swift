import Foundation
import PurserCore
import PurserStorage
import PurserWebhooks
import Testing

/// A purchase Apple refunded (in part) before Purser credited it: the settlement that credits it takes Apple's
/// share back in its own database transaction, whether the share came with the submission or Apple's refund reached
/// the ledger while the purchase was still unbound; a refund of an uncredited purchase is remembered, not dropped.
extension LedgerStoreConformance {
    /// Every check of this file.
    public func takesBackRefundsAppleMadeBeforeOrBesideTheCredit() async throws {
        try await revokesTheRefundedShareInTheSettlementThatCredits()
        try await remembersARefundOfAnUnboundPurchaseForTheCreditThatBindsIt()
        try await revokesAWhollyRefundedUnboundPurchaseAndReopensItOnReversal()
        try await stopsTheRevokeAtCreditAtZeroWithoutNegativeBalances()
        try await revokesARefundARepeatSettlementCarries()
    }

    /// `transaction(id)` as Apple signs it after refunding `percentage` of it.
    func refunded(_ id: String, token: OrderID?, _ percentage: Int) -> AppleTransaction {
        var refunded = transaction(id, token: token)
        refunded.revocationDate = now
        refunded.revocationType = percentage >= RefundRules.whole ? .refundFull : .refundProrated
        refunded.revocationPercentage = percentage
        return refunded
    }

    /// A submission carrying a 40% refund credits 60 gold and revokes 24 in the same settlement: the record is
    /// revoked at 40% straight from `settle`, with both events and audit records; a refund notification of the same
    /// share afterwards changes nothing.
    public func revokesTheRefundedShareInTheSettlementThatCredits() async throws {
        let order = try await newOrder("rbc-uma")
        let submission = Submission(
            transaction: refunded("t-rbc-uma", token: order.id, 40_000), assessment: .creditable(gold),
            source: .notification("n-rbc-uma"))
        let settlement = try await store.settle(submission, now: now)
        #expect(settlement.decision == .deliveredToOtherAccount)
        #expect(settlement.creditedNow)
        let record = try #require(try await store.transaction("t-rbc-uma"))
        #expect(record.state == .revoked && record.ownerID == "rbc-uma")
        #expect(record.transaction.revocationPercentage == 40_000)
        #expect(try await store.balances(of: "rbc-uma") == ["gold": 36])
        #expect(try await store.auditTrail(of: "t-rbc-uma").map(\.event) == ["credited", "revoked"])
        #expect(
            try await store.revoke(prorated("t-rbc-uma", 40_000), now: now + 1)
                == .unchanged("40.000% already revoked; Apple's share is 40.000%"))
        #expect(try await store.balances(of: "rbc-uma") == ["gold": 36])
    }

    /// Apple refunds 69.956% of an unbound purchase, then 21.997% arrives late (notifications reorder): the ledger
    /// notes the larger share while nobody owns it, and the order that binds it later is credited 60 and revoked 41
    /// (floor of 69.956%) in one settlement; the late, smaller refund then takes nothing.
    public func remembersARefundOfAnUnboundPurchaseForTheCreditThatBindsIt() async throws {
        let unbound = Submission(
            transaction: transaction("t-rbc-vic", token: nil), assessment: .creditable(gold),
            source: .notification("n-rbc-vic"))
        #expect(try await store.settle(unbound, now: now).decision == .pending(.unbound))
        let noted = try await store.revoke(prorated("t-rbc-vic", 69_956), now: now + 1)
        guard case .noted = noted else {
            Issue.record("a refund of an unbound purchase was \(noted), not noted")
            return
        }
        let order = try await newOrder("rbc-vic")
        let binding = Submission(
            transaction: transaction("t-rbc-vic", token: nil), assessment: .creditable(gold),
            source: .client("rbc-vic"),
            orderHint: order.id)
        #expect(try await store.settle(binding, now: now + 2).decision == .delivered)
        #expect(try await store.balances(of: "rbc-vic") == ["gold": 19])
        let record = try #require(try await store.transaction("t-rbc-vic"))
        #expect(record.state == .revoked && record.transaction.revocationPercentage == 69_956)
        #expect(
            try await store.revoke(prorated("t-rbc-vic", 21_997), now: now + 3)
                == .unchanged("69.956% already revoked; Apple's share is 21.997%"))
        #expect(try await store.balances(of: "rbc-vic") == ["gold": 19])
        #expect(
            try await store.auditTrail(of: "t-rbc-vic").map(\.event)
                == ["recorded_unbound", "refund_noted", "credited", "revoked"])
    }

    /// An unbound purchase Apple refunded whole is revoked, never credited, and leaves the support queue; Apple's
    /// reversal makes it unbound again, and the order that binds it then gets all of it.
    public func revokesAWhollyRefundedUnboundPurchaseAndReopensItOnReversal() async throws {
        let unbound = Submission(
            transaction: transaction("t-rbc-wes", token: nil), assessment: .creditable(gold), source: .client("rbc-wes")
        )
        #expect(try await store.settle(unbound, now: now).decision == .pending(.unbound))
        let whole = Revocation(transactionID: "t-rbc-wes", date: now, type: .refundFull, cause: "refund")
        guard case .noted = try await store.revoke(whole, now: now + 1) else {
            Issue.record("a whole refund of an unbound purchase was not noted")
            return
        }
        #expect(try await store.transaction("t-rbc-wes")?.state == .revoked)
        #expect(try await !store.unboundTransactionIDs(limit: 1_000).contains("t-rbc-wes"))
        let order = try await newOrder("rbc-wes")
        var binding = unbound
        binding.orderHint = order.id
        #expect(try await store.settle(binding, now: now + 2).decision == .revoked)
        #expect(try await store.balances(of: "rbc-wes") == [:])
        guard case .noted = try await store.restore(transactionID: "t-rbc-wes", cause: "reversed", now: now + 3) else {
            Issue.record("the reversal of a refund before any credit changed nothing")
            return
        }
        #expect(try await store.transaction("t-rbc-wes")?.state == .unbound)
        #expect(try await store.settle(binding, now: now + 4).decision == .delivered)
        #expect(try await store.balances(of: "rbc-wes") == ["gold": 60])
    }

    /// With `allowNegativeBalance` false the revoke in the settlement stops at a zero balance, counting the balance
    /// the owner held before the credit: a debt of 50 and a credit of 60 leave 10 to take of the 30 due.
    public func stopsTheRevokeAtCreditAtZeroWithoutNegativeBalances() async throws {
        let debit = try #require(debit, "the backend's test passes `debit` to LedgerStoreConformance")
        try await creditedEvent("t-rbc-xan-0", user: "rbc-xan")
        try await debit("t-rbc-xan-0", "rbc-xan", "gold", 110)  // 60 credited, 110 taken elsewhere: −50
        let order = try await newOrder("rbc-xan")
        let submission = Submission(
            transaction: refunded("t-rbc-xan", token: order.id, 50_000), assessment: .creditable(gold),
            source: .client("rbc-xan"), allowNegativeBalance: false)
        #expect(try await store.settle(submission, now: now).decision == .delivered)
        #expect(try await store.balances(of: "rbc-xan") == ["gold": 0])
        let detail = try #require(try await store.auditTrail(of: "t-rbc-xan").last?.detail)
        #expect(detail.contains("from rbc-xan gold-10 (REFUND_PRORATED: 0.000% → 50.000% of the purchase revoked)"))
        #expect(detail.contains("shortfall gold=20"))
    }

    /// A refund's notification that found no transaction settles it itself, and may lose the race to the credit:
    /// its settlement then meets a credited transaction. A repeat whose signed data carries a larger refunded share
    /// than the ledger revoked revokes the difference in that settlement (30% of 60, then 50%: 18, then 12 more, as
    /// the transaction's second revoke event), and one with the same share changes nothing.
    public func revokesARefundARepeatSettlementCarries() async throws {
        try await drainUndispatched()
        let order = try await newOrder("rbc-yan")
        let credit = Submission(
            transaction: transaction("t-rbc-yan", token: order.id), assessment: .creditable(gold),
            source: .notification("n-rbc-yan-charge"))
        #expect(try await store.settle(credit, now: now).decision == .deliveredToOtherAccount)
        var refund = credit
        refund.source = .notification("n-rbc-yan-refund")
        refund.transaction = refunded("t-rbc-yan", token: order.id, 30_000)
        let repeated = try await store.settle(refund, now: now + 1)
        #expect(repeated.decision == .deliveredToOtherAccount && !repeated.creditedNow)
        #expect(repeated.record?.state == .revoked && repeated.record?.transaction.revocationPercentage == 30_000)
        #expect(try await store.balances(of: "rbc-yan") == ["gold": 42])
        #expect(try await store.settle(refund, now: now + 2).record?.transaction.revocationPercentage == 30_000)
        #expect(try await store.balances(of: "rbc-yan") == ["gold": 42])
        refund.transaction = refunded("t-rbc-yan", token: order.id, 50_000)
        _ = try await store.settle(refund, now: now + 3)
        #expect(try await store.balances(of: "rbc-yan") == ["gold": 30])
        #expect(try await store.auditTrail(of: "t-rbc-yan").map(\.event) == ["credited", "revoked", "revoked"])
        let events = try await refundEvents(endpoint: "https://rbc-yan.example")
        #expect(events.map(\.grants) == [["gold": 60], ["gold": -18], ["gold": -12]])
        #expect(events.map(\.revocationPercentage) == [nil, 30_000, 50_000])
    }
}
