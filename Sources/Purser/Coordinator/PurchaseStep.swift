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
    /// The transaction is finished and its journal entry closed; the app has not heard the event yet.
    case finished
}
