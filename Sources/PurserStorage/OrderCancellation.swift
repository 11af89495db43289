import PurserCore

/// What `LedgerStore.cancelOrder` found and did.
public enum OrderCancellation: Hashable, Sendable {
    /// The waiting order is now `cancelled`; its audit record was written in the same database transaction.
    case cancelled(Order)
    /// The order was cancelled before; nothing changed (a repeated cancel is idempotent).
    case alreadyCancelled(Order)
    /// A transaction was credited through the order already; nothing changed.
    case delivered(Order)
    /// No such order, or it belongs to another account (the two are indistinguishable to the caller).
    case notFound
}
