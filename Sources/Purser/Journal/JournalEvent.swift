/// What happened to a purchase; `JournalEntry.applying(_:at:)` turns it into the next state.
public enum JournalEvent: Sendable, Hashable {
    /// The payment was handed to StoreKit.
    case paymentAdded
    /// Ask to Buy: a parent has to approve.
    case deferred
    /// StoreKit reported the purchase.
    case purchased(transactionID: String)
    /// A submission that ended without a decision (network error, 5xx, a 4xx refusal).
    case submissionFailed(String)
    /// The server recorded the transaction but answered `finish: false`, with its reason code.
    case serverPending(String)
    /// The server answered `finish: true` with this decision.
    case decided(String)
    /// The transaction was finished after the server's decision.
    case finished
    /// The user cancelled, or the payment never happened, with why.
    case cancelled(String)
    /// StoreKit reported the payment failed, with why.
    case failed(String)
}
