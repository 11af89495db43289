import PurserCore

/// An event that does not fit the entry's state (a bug or a corrupted journal, never a user error).
public struct JournalError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The entry the event was for.
    public var entry: OrderID
    /// The entry's state when the event came.
    public var state: JournalEntry.State
    /// The event it could not take.
    public var event: JournalEvent

    /// Always `invalid_journal_transition`.
    public var code: String { "invalid_journal_transition" }
    /// The code, the entry, its state and the event.
    public var description: String { "\(code): entry \(entry) in state \(state.rawValue) cannot take \(event)" }
}
