import AppStoreVerification

/// A purchase as the simulator keeps it in memory: `SimulatedPurchase` with its transaction in a shared, immutable
/// `TransactionState`. The notification about a change carries the same state as the record (a purchase's
/// ONE_TIME_CHARGE, a refund's REFUND), so each state of a transaction is held once: at a million purchases two
/// inline copies of every transaction (400 bytes each, in a dictionary and an array that double as they grow)
/// were most of a chaos run's memory.
struct PurchaseRecord: Sendable {
    /// The transaction as it is now.
    var state: TransactionState
    var deviceId: String
    var finished: Bool
    var appleOrderId: String

    /// `purchase`, holding `state` when that is its transaction already (no second copy), a new state otherwise.
    init(_ purchase: SimulatedPurchase, sharing state: TransactionState?) {
        self.state = TransactionState.reusing(state, for: purchase.transaction)
        self.deviceId = purchase.deviceId
        self.finished = purchase.finished
        self.appleOrderId = purchase.appleOrderId
    }

    /// The record as the simulator's API answers it.
    var purchase: SimulatedPurchase {
        SimulatedPurchase(
            transaction: state.payload, deviceId: deviceId, finished: finished, appleOrderId: appleOrderId)
    }

    /// The transaction as it is now.
    var transaction: JWSTransaction { state.payload }
}
