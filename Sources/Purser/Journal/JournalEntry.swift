import Foundation
import PurserCore

/// One purchase as the app's journal remembers it, from the server's order to the finished transaction. Written
/// before the payment is added and updated at every step, so a crash at any point leaves a record to recover from.
public struct JournalEntry: Codable, Sendable, Hashable, Identifiable {
    /// Where a purchase stands; the journal moves an entry only along the transitions `JournalEvent` allows.
    public enum State: String, Codable, Sendable, Hashable {
        /// The server made the order; the payment is not added yet.
        case created
        /// The payment was handed to StoreKit.
        case paying
        /// Ask to Buy: waiting for a parent.
        case deferred
        /// StoreKit reported the purchase; the server has not decided yet.
        case paid
        /// The server recorded it but said "not yet" (`finish: false`).
        case pending
        /// The server decided (`finish: true`); the transaction is being finished.
        case decided
        /// Closed: the transaction was finished after the server's decision.
        case finished
        /// Closed: the user cancelled, or the payment never happened.
        case cancelled
        /// Closed: StoreKit reported the payment failed.
        case failed

        /// Nothing more will happen to a closed entry (unless Apple reports a charge for it after all).
        public var isClosed: Bool { self == .finished || self == .cancelled || self == .failed }
        /// Still waiting for StoreKit to report a transaction.
        public var awaitsTransaction: Bool { self == .created || self == .paying || self == .deferred }
    }

    /// The server's order id, also the `applicationUsername` / `appAccountToken` given to StoreKit.
    public var id: OrderID
    /// The user who bought, as the server knows them.
    public var userID: String
    /// The product bought.
    public var productID: String
    /// How many units.
    public var quantity: Int
    /// When the order was journaled.
    public var createdAt: Date
    /// When the entry last changed.
    public var updatedAt: Date
    /// Where the purchase stands.
    public var state: State
    /// Apple's transaction id, once StoreKit reported one.
    public var transactionID: String?
    /// Submissions that did not end in a decision.
    public var attempts: Int
    /// The last submission's error, for logs.
    public var lastError: String?
    /// The server's decision name once it decided.
    public var decision: String?
    /// The purchase's W3C trace id (`TraceContext`), which every request for it carries in its `traceparent`: the
    /// order, each submission and retry, recovery after a relaunch. Nil in an entry journaled by a release before
    /// trace ids; such an entry gets one at its next request (`PurchaseJournal.traceID(of:)`) and keeps it.
    public var traceID: String?

    /// A new entry for the server's order `id`, in state `created`, with the trace id its order was created in
    /// (by default a new one).
    public init(
        id: OrderID, userID: String, productID: String, quantity: Int, createdAt: Date,
        traceID: String = TraceContext.newTraceID()
    ) {
        self.id = id
        self.userID = userID
        self.productID = productID
        self.quantity = quantity
        self.createdAt = createdAt
        self.updatedAt = createdAt
        self.state = .created
        self.attempts = 0
        self.traceID = traceID
    }

    /// The entry after `event`, or `JournalError` when the event makes no sense in the current state. Pure: the
    /// journal's whole state machine, tested without I/O.
    public func applying(_ event: JournalEvent, at now: Date) throws(JournalError) -> JournalEntry {
        var next = self
        next.updatedAt = now
        switch (event, state) {
        case (.paymentAdded, .created), (.paymentAdded, .paying):
            next.state = .paying
        case (.deferred, .created), (.deferred, .paying), (.deferred, .deferred):
            next.state = .deferred
        case (.purchased(let transactionID), _):
            if let known = self.transactionID {
                guard known == transactionID else { throw JournalError(entry: id, state: state, event: event) }
                return self
            }
            // Apple's charge wins even over a cancelled or failed entry: the money was taken.
            guard state.awaitsTransaction || state == .cancelled || state == .failed else {
                throw JournalError(entry: id, state: state, event: event)
            }
            next.transactionID = transactionID
            next.state = .paid
        case (.submissionFailed(let message), .paid), (.submissionFailed(let message), .pending):
            next.attempts += 1
            next.lastError = message
        case (.serverPending(let code), .paid), (.serverPending(let code), .pending):
            next.state = .pending
            next.attempts += 1
            next.lastError = code
        case (.decided(let decision), .paid), (.decided(let decision), .pending), (.decided(let decision), .decided):
            next.state = .decided
            next.decision = decision
            next.lastError = nil
        case (.finished, .decided), (.finished, .finished):
            next.state = .finished
        case (.cancelled(let reason), let state) where state.awaitsTransaction:
            next.state = .cancelled
            next.lastError = reason
        case (.failed(let reason), let state) where state.awaitsTransaction:
            next.state = .failed
            next.lastError = reason
        default:
            throw JournalError(entry: id, state: state, event: event)
        }
        return next
    }
}
