import PurserCore

/// Why the journal refused a change.
public enum PurchaseJournalError: Error, Sendable, CustomStringConvertible {
    /// No entry has this order id.
    case unknownEntry(OrderID)
    /// The entry's state cannot take the event.
    case transition(JournalError)
    /// The store could not save the change.
    case storage(JournalStoreError)

    /// What went wrong, with its code.
    public var description: String {
        switch self {
        case .unknownEntry(let id): "unknown_journal_entry: no entry \(id)"
        case .transition(let error): error.description
        case .storage(let error): error.description
        }
    }
}
