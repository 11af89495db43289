import PurserChaos
import Testing

extension ChaosRunTests {
    /// Codes with which the SDK refuses a buy before anything is charged, as it must on a loaded machine (the
    /// server unreachable five taps in a row, an earlier purchase of the product still unfinished), and `answered`
    /// (a payment that was still pending when the taps ended).
    static let refusalsBeforeCharge: Set<String> = [
        "server_unreachable", "earlier_purchase_unfinished", "purchase_in_progress", "terminated", "answered",
    ]

    /// Every purchase is charged or counted among the uncharged with the code its last tap answered; those codes
    /// are refusals the SDK owes the user before a charge; and most purchases were charged, so the run tested
    /// credits. How many end uncharged depends on the machine's load, so no closer floor holds.
    static func expectEveryPurchaseChargedOrRefusedBeforeAnyCharge(_ purser: ChaosReport.StrategyResult) {
        let uncharged = purser.uncharged ?? [:]
        let unchargedCount = uncharged.values.reduce(0, +)
        #expect(
            purser.charged + unchargedCount >= purser.purchases,
            "charged \(purser.charged), uncharged \(uncharged), of \(purser.purchases) purchases")
        #expect(
            Set(uncharged.keys).isSubset(of: refusalsBeforeCharge), "uncharged for another reason: \(uncharged)")
        #expect(purser.charged * 2 > purser.purchases, "most purchases were charged: \(purser.charged)")
    }
}
