import AppStoreVerification

/// What the simulator remembers of one purchase: Apple's record, the device that paid, and whether that device
/// finished the transaction (which takes a consumable out of the device's app receipt).
public struct SimulatedPurchase: Codable, Sendable, Hashable {
    public var transaction: JWSTransaction
    public var deviceId: String
    public var finished: Bool

    public init(transaction: JWSTransaction, deviceId: String, finished: Bool) {
        self.transaction = transaction
        self.deviceId = deviceId
        self.finished = finished
    }
}
