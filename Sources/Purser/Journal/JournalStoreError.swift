/// The journal could not be read or written.
public struct JournalStoreError: Error, Sendable, CustomStringConvertible {
    /// A stable code for logs (`journal_unreadable`, `journal_unwritable`, …).
    public var code: String
    /// What went wrong, for logs.
    public var message: String

    /// An error with `code` and `message`.
    public init(code: String, message: String) {
        self.code = code
        self.message = message
    }

    /// The code and the message.
    public var description: String { "\(code): \(message)" }
}
