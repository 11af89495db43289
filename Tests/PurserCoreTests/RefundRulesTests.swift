import PurserCore
import Testing

/// The arithmetic of partial refunds: `floor(grant × share / 100000)` of the cumulative share, less what earlier
/// refunds took; whole refunds take everything; balances stop a revoke at zero only when asked.
@Suite struct RefundRulesTests {
    @Test func theShareFollowsApplesTypeAndPercentage() throws {
        #expect(RefundRules.share(type: .refundProrated, percentage: 50_000) == 50_000)
        #expect(RefundRules.share(type: .refundFull, percentage: 40_000) == RefundRules.whole)
        #expect(RefundRules.share(type: .familyRevoke, percentage: nil) == RefundRules.whole)
        #expect(RefundRules.share(type: nil, percentage: nil) == RefundRules.whole)
        #expect(RefundRules.share(type: RevocationType(rawValue: "NEWER"), percentage: 25_000) == 25_000)
        #expect(RefundRules.share(type: .refundProrated, percentage: 150_000) == RefundRules.whole)
        #expect(RefundRules.share(type: .refundProrated, percentage: -5) == 0)
    }

    @Test func amountsRoundDownWithoutOverflow() throws {
        #expect(RefundRules.revokedAmount(of: 60, share: 33_333) == 19)
        #expect(RefundRules.revokedAmount(of: 60, share: 66_666) == 39)
        #expect(RefundRules.revokedAmount(of: 60, share: RefundRules.whole) == 60)
        #expect(RefundRules.revokedAmount(of: 1, share: 99_999) == 0)
        #expect(RefundRules.revokedAmount(of: Int64.max, share: RefundRules.whole) == Int64.max)
        #expect(RefundRules.revokedAmount(of: Int64.max, share: 50_000) == Int64.max / 2)
    }

    @Test func severalPartialRefundsNeverTakeMoreThanTheGrant() throws {
        let grants = Grants(["gold": 60, "gems": 7])
        var previous = 0
        var taken: [String: Int64] = [:]
        for share in [33_333, 66_666, 66_666, 99_999, RefundRules.whole] {
            let step = try RefundRules.revoke(grants: grants, from: previous, to: share, balances: nil)
            for (currency, amount) in step.revoked.amounts { taken[currency, default: 0] += amount }
            #expect(step.shortfall.isEmpty)
            previous = max(previous, share)
        }
        #expect(taken == ["gold": 60, "gems": 7])
        let first = try RefundRules.revoke(grants: grants, from: 0, to: 33_333, balances: nil)
        #expect(first.revoked == Grants(["gold": 19, "gems": 2]))
    }

    @Test func aLowBalanceStopsTheRevokeAtZeroAndKeepsTheShortfall() throws {
        let grants = Grants(["gold": 60, "gems": 10])
        let step = try RefundRules.revoke(grants: grants, from: 0, to: 50_000, balances: ["gold": 12, "gems": -3])
        #expect(step.revoked == Grants(["gold": 12]))
        #expect(step.shortfall == Grants(["gold": 18, "gems": 5]))
        #expect(RefundRules.percentText(80_000) == "80.000%" && RefundRules.percentText(15) == "0.015%")
    }
}
