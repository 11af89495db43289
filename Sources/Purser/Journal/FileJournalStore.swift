import Foundation

/// The journal as one JSON file, replaced atomically and durably (`DurableFile`): a crash leaves either the old or
/// the new journal, never a torn one.
public struct FileJournalStore: JournalStore {
    public let url: URL

    public init(url: URL) {
        self.url = url
    }

    public func load() throws(JournalStoreError) -> [JournalEntry] {
        guard FileManager.default.fileExists(atPath: url.path) else { return [] }
        do {
            return try JournalEntry.decoded(from: Data(contentsOf: url))
        } catch {
            throw JournalStoreError(code: "journal_unreadable", message: "cannot read \(url.path): \(error)")
        }
    }

    public func save(_ entries: [JournalEntry]) throws(JournalStoreError) {
        let data: Data
        do {
            data = try JournalEntry.encoded(entries)
        } catch {
            throw JournalStoreError(code: "journal_unwritable", message: "cannot encode the journal: \(error)")
        }
        try save(entries, encoded: data)
    }

    public func save(_ entries: [JournalEntry], encoded data: Data) throws(JournalStoreError) {
        try DurableFile.replace(url, with: data)
    }
}
