import Foundation

/// Where the journal lives. Keychain on Apple platforms (it survives uninstall), a file elsewhere. `save` replaces
/// everything atomically and durably: after it returns, a crash cannot lose or half-write an entry.
public protocol JournalStore: Sendable {
    func load() throws(JournalStoreError) -> [JournalEntry]
    func save(_ entries: [JournalEntry]) throws(JournalStoreError)
}

extension JournalEntry {
    /// The journal's stored form, the same in every store: a JSON array, dates in milliseconds, keys sorted.
    static func encoded(_ entries: [JournalEntry]) throws -> Data {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .millisecondsSince1970
        encoder.outputFormatting = .sortedKeys
        return try encoder.encode(entries)
    }

    /// Entries from their stored form (`encoded`).
    static func decoded(from data: Data) throws -> [JournalEntry] {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .millisecondsSince1970
        return try decoder.decode([JournalEntry].self, from: data)
    }
}
