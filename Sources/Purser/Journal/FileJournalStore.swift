import Foundation

/// The journal as one JSON file, replaced atomically and durably (`DurableFile`): a crash leaves either the old or
/// the new journal, never a torn one.
public struct FileJournalStore: JournalStore {
    /// The journal's file.
    public let url: URL

    /// A store in the file at `url`, which need not exist yet.
    public init(url: URL) {
        self.url = url
    }

    /// The entries in the file; none when it does not exist yet.
    public func load() throws(JournalStoreError) -> [JournalEntry] {
        guard FileManager.default.fileExists(atPath: url.path) else { return [] }
        do {
            return try JournalEntry.decoded(from: Data(contentsOf: url))
        } catch {
            throw JournalStoreError(code: "journal_unreadable", message: "cannot read \(url.path): \(error)")
        }
    }

    /// Replaces the file's entries, atomically and durably (written to a temporary file, synced, renamed).
    public func save(_ entries: [JournalEntry]) throws(JournalStoreError) {
        let data: Data
        do {
            data = try JournalEntry.encoded(entries)
        } catch {
            throw JournalStoreError(code: "journal_unwritable", message: "cannot encode the journal: \(error)")
        }
        try save(entries, encoded: data)
    }

    /// Writes `data`, the entries' stored form, atomically and durably.
    public func save(_ entries: [JournalEntry], encoded data: Data) throws(JournalStoreError) {
        try DurableFile.replace(url, with: data)
    }
}
