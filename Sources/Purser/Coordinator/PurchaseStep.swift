/// The named points of a purchase where an app can die. `PurchaseProbe` is called at each, so crash tests (and
/// the chaos harness) kill the app exactly there.
public enum PurchaseStep: String, Sendable, Hashable, CaseIterable {
    /// The server created the order; nothing journaled yet.
    case orderCreated
    /// The journal entry is written; the payment is not added yet.
    case journaled
    /// StoreKit reported the purchase; not submitted yet.
    case paid
    /// The server decided (`finish: true`); the transaction is not finished yet.
    case decided
    /// The transaction is finished; the journal entry is not closed yet.
    case finished
}

/// Called at every `PurchaseStep`. Throwing stops the coordinator dead at that step, as a crash would.
public struct PurchaseProbe: Sendable {
    let check: @Sendable (PurchaseStep) async throws -> Void

    public init(_ check: @escaping @Sendable (PurchaseStep) async throws -> Void) {
        self.check = check
    }

    /// Never interrupts.
    public static let none = PurchaseProbe { _ in }
}

/// What triggers a recovery pass over StoreKit's unfinished transactions.
public enum RecoveryTrigger: String, Sendable, Hashable {
    case launch, foreground, login, networkAvailable
}
