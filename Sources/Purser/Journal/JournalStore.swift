/// Where the journal lives. Keychain on Apple platforms (it survives uninstall), a file elsewhere. `save` replaces
/// everything atomically and durably: after it returns, a crash cannot lose or half-write an entry.
public protocol JournalStore: Sendable {
    func load() throws(JournalStoreError) -> [JournalEntry]
    func save(_ entries: [JournalEntry]) throws(JournalStoreError)
}
