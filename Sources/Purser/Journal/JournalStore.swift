import Foundation

/// Where the journal lives. Keychain on Apple platforms (it survives uninstall), a file elsewhere. `save` replaces
/// everything atomically and durably: after it returns, a crash cannot lose or half-write an entry.
public protocol JournalStore: Sendable {
    /// Every stored entry; none when nothing was stored yet.
    func load() throws(JournalStoreError) -> [JournalEntry]
    /// Replaces everything stored with `entries`, atomically and durably.
    func save(_ entries: [JournalEntry]) throws(JournalStoreError)
    /// Saves `entries`, whose stored form (`JournalEntry.encoded(entries)`) is `encoded`: `PurchaseJournal` keeps each
    /// entry's JSON between saves and hands the bytes over, so a store that writes the stored form need not encode
    /// every entry again. The default ignores `encoded` and calls `save(_:)`.
    func save(_ entries: [JournalEntry], encoded: Data) throws(JournalStoreError)
}

extension JournalStore {
    /// Ignores `encoded` and calls `save(_:)`.
    public func save(_ entries: [JournalEntry], encoded: Data) throws(JournalStoreError) {
        try save(entries)
    }
}

extension JournalEntry {
    /// The journal's stored form, the same in every store: a JSON array, dates in milliseconds, keys sorted.
    static func encoded(_ entries: [JournalEntry]) throws -> Data {
        try encoder.encode(entries)
    }

    /// One entry's stored form: the stored form of several is theirs joined by commas in brackets (`encoded`).
    func encoded() throws -> Data {
        try Self.encoder.encode(self)
    }

    private static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .millisecondsSince1970
        encoder.outputFormatting = .sortedKeys
        return encoder
    }

    /// Entries from their stored form (`encoded`).
    static func decoded(from data: Data) throws -> [JournalEntry] {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .millisecondsSince1970
        return try decoder.decode([JournalEntry].self, from: data)
    }
}
