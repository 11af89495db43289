import Purser

/// What the simulated customer does at the next payment sheet, so an app's test can walk each path of its shop.
public enum SimulatorPurchaseOutcome: Sendable, Hashable {
    /// Pays: the simulator signs a transaction with the order's token.
    case pay
    /// Closes the sheet: StoreKit's `userCancelled`.
    case cancel
    /// Ask to Buy: the purchase waits for a parent; `SimulatorStoreAdapter.approveAskToBuy()` pays it later, and the
    /// transaction arrives as an update, as StoreKit's `Transaction.updates` delivers it.
    case askToBuy
    /// StoreKit fails the purchase for `reason` (a network error, payments not allowed, …).
    case fail(PurchaseFailureReason)
}
