import AppStoreSimulator
import AppStoreVerification
import Synchronization

/// What the harness saw while a strategy ran: who bought each charged transaction (the truth the invariants are
/// checked against, next to the simulator's record; every charge names the buy that paid it), finishes that came
/// before a decision, and the ids forged submissions claimed.
public final class ChaosRecord: Sendable {
    /// One charged transaction and the purchase that caused it.
    public struct Charge: Sendable, Hashable {
        public var transactionID: String
        public var buyer: String
        public var productID: String
        public var purchase: Int
    }

    private struct State {
        var charges: [String: Charge] = [:]
        var order: [String] = []
        var earlyFinishes: [String: String] = [:]
        var forged: [String] = []
        /// Per purchase, how many of its charges had landed when its last `buy` answered.
        var chargedWhenAnswered: [Int: Int] = [:]
        var lateCharges = 0
        /// Purchases that ended with nothing charged, by the code their last tap on "buy" answered.
        var uncharged: [String: Int] = [:]
    }

    private let state = Mutex(State())

    public init() {}

    private func charged(_ transactionID: String, buyer: String, productID: String, purchase: Int) {
        state.withLock { state in
            guard state.charges[transactionID] == nil else { return }
            state.charges[transactionID] = Charge(
                transactionID: transactionID, buyer: buyer, productID: productID,
                purchase: purchase)
            state.order.append(transactionID)
        }
    }

    /// Runs `purchase`'s taps on "buy" with the purchase's payment label, and notes how many of its charges had
    /// landed when they answered (any later one is a late charge). `taps` returns the code the last tap answered
    /// with, if it failed: a purchase that ends uncharged is counted by it. Returns the latest charge.
    func buy(
        _ purchase: PlannedPurchase, on device: SimulatedDevice,
        _ taps: () async throws -> String?
    ) async rethrows -> String? {
        let label = Self.label(of: purchase)
        let failure = try await SimulatedDevice.$paymentLabel.withValue(label, operation: taps)
        let charged = device.chargedTransactionIDs(labelled: label)
        state.withLock { state in
            state.chargedWhenAnswered[purchase.index] = charged.count
            if charged.isEmpty { state.uncharged[failure ?? "answered", default: 0] += 1 }
        }
        return charged.last
    }

    /// Records every charge on the device of `plan` as bought in the purchase its payment was labelled with,
    /// however late it landed. A charge with no known label is recorded with the buyer "(unlabelled)", so that it
    /// shows as a violation instead of vanishing.
    func collectCharges(on device: SimulatedDevice, plan: DevicePlan) {
        let purchases = Dictionary(uniqueKeysWithValues: plan.purchases.map { (Self.label(of: $0), $0) })
        var perPurchase: [Int: Int] = [:]
        for charge in device.charges {
            guard let label = charge.label, let purchase = purchases[label] else {
                charged(charge.transactionID, buyer: "(unlabelled)", productID: "", purchase: -1)
                continue
            }
            charged(charge.transactionID, buyer: purchase.user, productID: purchase.productID, purchase: purchase.index)
            perPurchase[purchase.index, default: 0] += 1
        }
        state.withLock { state in
            for (index, count) in perPurchase {
                state.lateCharges += max(0, count - state.chargedWhenAnswered[index, default: 0])
            }
        }
    }

    /// The payment label of the taps made for `purchase`.
    private static func label(of purchase: PlannedPurchase) -> String { String(purchase.index) }

    /// The app finished `transactionID` while the ledger showed `ledger` (no record, unbound, or unreadable).
    func finishedEarly(_ transactionID: String, ledger: String) {
        state.withLock { $0.earlyFinishes[transactionID] = $0.earlyFinishes[transactionID] ?? ledger }
    }
    func forged(_ transactionID: String) { state.withLock { $0.forged.append(transactionID) } }

    public var charges: [Charge] { state.withLock { state in state.order.compactMap { state.charges[$0] } } }
    public func charge(_ transactionID: String) -> Charge? { state.withLock { $0.charges[transactionID] } }
    /// Transactions finished before a decision, with what the ledger showed at the finish.
    public var earlyFinishes: [String: String] { state.withLock { $0.earlyFinishes } }
    public var forgedTransactionIDs: [String] { state.withLock { $0.forged } }
    /// Charges that landed after their purchase's `buy` had answered (counted by `collectCharges`).
    public var lateCharges: Int { state.withLock { $0.lateCharges } }
    /// Purchases with nothing charged when their taps ended, by the code the last tap answered (`answered` when it
    /// did not fail: a payment still pending, say); a charge that lands later is counted as late, not here.
    public var uncharged: [String: Int] { state.withLock { $0.uncharged } }
}
