import PurserCore

/// An event that does not fit the entry's state (a bug or a corrupted journal, never a user error).
public struct JournalError: Error, Sendable, Hashable, CustomStringConvertible {
    public var entry: OrderID
    public var state: JournalEntry.State
    public var event: JournalEvent

    public var code: String { "invalid_journal_transition" }
    public var description: String { "\(code): entry \(entry) in state \(state.rawValue) cannot take \(event)" }
}
