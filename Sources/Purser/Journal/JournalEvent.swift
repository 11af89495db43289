/// What happened to a purchase; `JournalEntry.applying(_:at:)` turns it into the next state.
public enum JournalEvent: Sendable, Hashable {
    case paymentAdded
    case deferred
    case purchased(transactionID: String)
    /// A submission that ended without a decision (network error, 5xx, a 4xx refusal).
    case submissionFailed(String)
    /// The server recorded the transaction but answered `finish: false`, with its reason code.
    case serverPending(String)
    /// The server answered `finish: true` with this decision.
    case decided(String)
    case finished
    case cancelled(String)
    case failed(String)
}
