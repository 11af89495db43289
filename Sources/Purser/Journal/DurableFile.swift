import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A file replaced atomically and durably: written to a temporary file, fsynced, renamed over the old one, and the
/// directory fsynced, so a crash leaves either the old or the new content, never a torn one. The journals' storage.
enum DurableFile {
    static func replace(_ url: URL, with data: Data) throws(JournalStoreError) {
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
            synchronizeDirectory(directory)
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
