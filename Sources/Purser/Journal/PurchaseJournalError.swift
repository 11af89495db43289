import PurserCore

/// Why the journal refused a change.
public enum PurchaseJournalError: Error, Sendable, CustomStringConvertible {
    case unknownEntry(OrderID)
    case transition(JournalError)
    case storage(JournalStoreError)

    public var description: String {
        switch self {
        case .unknownEntry(let id): "unknown_journal_entry: no entry \(id)"
        case .transition(let error): error.description
        case .storage(let error): error.description
        }
    }
}
