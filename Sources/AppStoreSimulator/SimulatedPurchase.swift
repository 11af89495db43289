import AppStoreVerification

/// What the simulator remembers of one purchase: Apple's record, the device that paid, and whether that device
/// finished the transaction (which takes a consumable out of the device's app receipt).
public struct SimulatedPurchase: Codable, Sendable, Hashable {
    public var transaction: JWSTransaction
    public var deviceId: String
    public var finished: Bool
    /// The order id on the customer's e-mail receipt from Apple, e.g. "MK5TTTVWJH" (Look Up Order ID takes it).
    public var appleOrderId: String

    public init(transaction: JWSTransaction, deviceId: String, finished: Bool, appleOrderId: String) {
        self.transaction = transaction
        self.deviceId = deviceId
        self.finished = finished
        self.appleOrderId = appleOrderId
    }
}
