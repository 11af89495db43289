import AppStoreSimulator
import AppStoreVerification

/// What the harness saw while a strategy ran: who bought each charged transaction (the truth the invariants are
/// checked against, next to the simulator's record), finishes that came before a decision, and the ids forged
/// submissions claimed.
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

    /// Records the transactions Apple charged on `device` after its first `count` as bought in `purchase`; returns
    /// the device's new count.
    func charges(on device: SimulatedDevice, since count: Int, for purchase: PlannedPurchase) -> Int {
        let charged = device.chargedTransactionIDs
        for id in charged.dropFirst(count) {
            self.charged(id, buyer: purchase.user, productID: purchase.productID, purchase: purchase.index)
        }
        return charged.count
    }

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
}
