/// Where the journal lives. Keychain on Apple platforms (it survives uninstall), a file elsewhere. `save` replaces
/// everything atomically and durably: after it returns, a crash cannot lose or half-write an entry.
public protocol JournalStore: Sendable {
    func load() throws(JournalStoreError) -> [JournalEntry]
    func save(_ entries: [JournalEntry]) throws(JournalStoreError)
}

/// The journal could not be read or written.
public struct JournalStoreError: Error, Sendable, CustomStringConvertible {
    public var code: String
    public var message: String

    public init(code: String, message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code): \(message)" }
}
