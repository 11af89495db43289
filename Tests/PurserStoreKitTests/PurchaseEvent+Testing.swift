import Purser
import PurserCore

/// What the tests ask of an event.
extension PurchaseEvent {
    var isDelivered: Bool { if case .delivered = self { true } else { false } }
    var isRedelivered: Bool { if case .redelivered = self { true } else { false } }
    var isOtherAccount: Bool { if case .deliveredToOtherAccount = self { true } else { false } }
    var pendingReason: PendingPurchaseReason? { if case .pending(let p) = self { p.reason } else { nil } }
    var failureReason: PurchaseFailureReason? { if case .failed(let f) = self { f.reason } else { nil } }
    var orderID: OrderID? {
        switch self {
        case .delivered(let d), .redelivered(let d), .deliveredToOtherAccount(let d): d.orderID
        case .pending(let p): p.orderID
        case .failed(let f): f.orderID
        }
    }
}
