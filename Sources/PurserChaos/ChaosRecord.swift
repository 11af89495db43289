import AppStoreSimulator
import AppStoreVerification

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
    }

    private let state = LockedValue(State())

    public init() {}

    func charged(_ transactionID: String, buyer: String, productID: String, purchase: Int) {
        state.withLock { state in
            guard state.charges[transactionID] == nil else { return }
            state.charges[transactionID] = Charge(transactionID: transactionID, buyer: buyer, productID: productID,
                                                  purchase: purchase)
            state.order.append(transactionID)
        }
    }

    /// Records every charge on `device` as bought in the purchase its payment was labelled with (`label(of:)`),
    /// however late it landed. A charge with no known label is recorded with the buyer "(unlabelled)", so that it
    /// shows as a violation instead of vanishing.
    func collectCharges(on device: SimulatedDevice, purchases: [String: PlannedPurchase]) {
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

    /// `purchase`'s buys answered with `count` of its charges landed; any later one is a late charge.
    func answered(_ purchase: PlannedPurchase, charged count: Int) {
        state.withLock { $0.chargedWhenAnswered[purchase.index] = count }
    }

    /// The payment label of the buys made for `purchase`.
    static func label(of purchase: PlannedPurchase) -> String { String(purchase.index) }

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
}
