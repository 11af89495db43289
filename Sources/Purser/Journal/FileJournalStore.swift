import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The journal as one JSON file, replaced atomically: written to a temporary file, fsynced, renamed over the old
/// one, and the directory fsynced, so a crash leaves either the old or the new journal, never a torn one.
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
        let directory = url.deletingLastPathComponent()
        let temporary = directory.appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).tmp")
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            guard FileManager.default.createFile(atPath: temporary.path, contents: nil) else {
                throw JournalStoreError(code: "journal_unwritable", message: "cannot create \(temporary.path)")
            }
            let handle = try FileHandle(forWritingTo: temporary)
            defer { try? handle.close() }
            try handle.write(contentsOf: data)
            try handle.synchronize()
            guard rename(temporary.path, url.path) == 0 else {
                throw JournalStoreError(
                    code: "journal_unwritable", message: "cannot replace \(url.path): errno \(errno)")
            }
            Self.synchronizeDirectory(directory)
        } catch let error as JournalStoreError {
            try? FileManager.default.removeItem(at: temporary)
            throw error
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw JournalStoreError(code: "journal_unwritable", message: "cannot write \(url.path): \(error)")
        }
    }

    /// Makes the rename itself durable.
    private static func synchronizeDirectory(_ directory: URL) {
        let descriptor = open(directory.path, O_RDONLY)
        guard descriptor >= 0 else { return }
        _ = fsync(descriptor)
        _ = close(descriptor)
    }
}
