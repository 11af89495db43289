import Foundation
import PurserCore
import Testing

/// Money that cannot trap: every sum, difference, negation and product at the edges of `Int64` throws
/// `amount_out_of_range` instead of stopping the process, and the rules built on it (grants, refunds, wallets, holds)
/// pass the error on instead of writing.
@Suite struct AmountsTests {
    static let edges: [Int64] = [.min, .min + 1, -1, 0, 1, .max - 1, .max, Amounts.walletLimit, -Amounts.walletLimit]

    /// Every pair of edges: the checked result equals the exact one (computed in `Int128`) when that fits in
    /// `Int64`, and throws when it does not; nothing traps.
    @Test(arguments: edges)
    func addsSubtractsMultipliesAndNegatesExactlyOrThrows(_ a: Int64) {
        func expectExact(_ checked: Int64?, _ exact: Int128, _ what: String) {
            let fits = exact >= Int128(Int64.min) && exact <= Int128(Int64.max)
            #expect(checked.map { Int128($0) } == (fits ? exact : nil), "\(what)")
        }
        for b in Self.edges {
            expectExact(try? Amounts.add(a, b, currency: "gold"), Int128(a) + Int128(b), "\(a) + \(b)")
            expectExact(try? Amounts.subtract(a, b, currency: "gold"), Int128(a) - Int128(b), "\(a) − \(b)")
        }
        for factor in [0, 1, -1, 10, Int(Int32.max)] {
            expectExact(
                try? Amounts.multiply(a, by: factor, currency: "gold"), Int128(a) * Int128(factor), "\(a) × \(factor)")
        }
        expectExact(try? Amounts.negate(a, currency: "gold"), -Int128(a), "−\(a)")
    }

    @Test func aProductThatOverflowsNamesTheCurrencyAndTheCode() throws {
        #expect(throws: AmountError.self) { try Grants(["gold": .max]).times(2) }
        do {
            _ = try Grants(["gems": 1, "gold": Int64.max / 9]).times(10)
            Issue.record("no error")
        } catch {
            #expect(error.currency == "gold")
            #expect(AmountError.code == "amount_out_of_range")
            #expect(error.message.contains("× 10"))
        }
        #expect(try Grants(["gold": 60]).times(10) == Grants(["gold": 600]))
    }

    @Test func sumsAndNegationsOfWholeAmountsAreChecked() throws {
        let big = Amounts(["gold": .max])
        #expect(throws: AmountError.self) { try big.adding(Amounts(["gold": 1])) }
        #expect(throws: AmountError.self) { try Amounts(["gold": .min]).negated() }
        #expect(throws: AmountError.self) { try Amounts.sum([big, big]) }
        #expect(
            try Amounts(["gold": 5, "gems": -2]).adding(Amounts(["gold": -5, "gems": 3])).values == [
                "gold": 0, "gems": 1,
            ])
        #expect(throws: AmountError.self) { try Amounts(["gold": Amounts.walletLimit + 1]).checkWithinWallet() }
        try Amounts(["gold": Amounts.walletLimit, "gems": -Amounts.walletLimit]).checkWithinWallet()
    }

    /// A deposit that would take a balance past the wallet's range, or a spend against `Int64.min`, is refused by the
    /// rule before anything is written; a spend of `Int64.min` does not trap computing what it spends.
    @Test func theWalletRulesRefuseOutOfRangeBalancesInsteadOfTrapping() throws {
        let request = { (amount: Int64) in
            WalletTransaction.Request(id: "w", userID: "u", amounts: ["gold": amount], reason: "r", cause: "admin")
        }
        let now = Date(timeIntervalSince1970: 1_704_067_200)
        #expect(throws: AmountError.self) {
            try WalletRules.plan(
                request(1), existing: nil, balances: ["gold": Amounts.walletLimit], held: [:], now: now)
        }
        #expect(throws: AmountError.self) {
            try WalletRules.plan(request(.min), existing: nil, balances: ["gold": 10], held: [:], now: now)
        }
        guard
            case .insufficient(let currency, _, _) = try WalletRules.plan(
                request(.min + 1), existing: nil, balances: ["gold": 10], held: [:], now: now)
        else {
            Issue.record("a spend of −(2^63 − 1) against 10 was not refused as insufficient")
            return
        }
        #expect(currency == "gold")
        #expect(throws: AmountError.self) {
            try WalletHoldRules.shortfall(["gold": 1], balances: ["gold": .min], held: ["gold": 1])
        }
        #expect(throws: AmountError.self) { try WalletHoldRules.held([["gold": .max], ["gold": 1]]) }
    }

    /// A catalog file lists every problem at once, and refuses a grant whose tenfold leaves the wallet's range.
    @Test func aCatalogReportsEveryProblemAndBoundsItsGrants() throws {
        let json = #"""
            {"products": {"big": {"type": "consumable", "grants": {"gold": 9223372036854775807}},
                          "zero": {"type": "consumable", "grants": {"gold": 0}},
                          "none": {"type": "consumable", "grants": {}},
                          "ok": {"type": "consumable", "grants": {"gold": 900719925474099}}}}
            """#
        do {
            _ = try ProductCatalog(json: Data(json.utf8))
            Issue.record("accepted")
        } catch {
            #expect(error.problems.count == 3, "\(error.problems)")
            #expect(error.problems.contains { $0.contains("product big has an invalid grant gold") })
            #expect(error.problems.contains { $0.contains("product zero") })
            #expect(error.problems.contains { $0.contains("product none grants nothing") })
        }
        #expect(ProductCatalog.maxGrant == 900_719_925_474_099)
    }
}
