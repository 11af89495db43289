import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where Purser creates what only its own user may read: the data directory, ledgers (they hold operators' password
/// hashes and every player's purchases), backups and exports. Directories are made with mode 0700 and files with
/// 0600, set with `chmod` after creation so that no umask widens them; what exists already is left as it is.
public enum OwnerOnlyFiles {
    /// Makes the directory `path` and every missing parent, each with mode 0700; existing ones are left as they are.
    public static func createDirectory(atPath path: String) throws {
        var missing: [String] = []
        var next = URL(fileURLWithPath: path).standardizedFileURL
        while !FileManager.default.fileExists(atPath: next.path), next.path != "/" {
            missing.append(next.path)
            next = next.deletingLastPathComponent()
        }
        for directory in missing.reversed() {
            guard mkdir(directory, 0o700) == 0 || errno == EEXIST else {
                throw StorageError(.unavailable, "cannot create the directory \(directory): errno \(errno)")
            }
            guard chmod(directory, 0o700) == 0 else {
                throw StorageError(.unavailable, "cannot make \(directory) owner-only: errno \(errno)")
            }
        }
    }

    /// Creates the empty file `path` with mode 0600 (its directory must exist); false, and nothing changed, when a file
    /// of that name exists.
    @discardableResult
    public static func createFile(atPath path: String) throws -> Bool {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            if errno == EEXIST { return false }
            throw StorageError(.unavailable, "cannot create \(path): errno \(errno)")
        }
        defer { _ = close(descriptor) }
        guard fchmod(descriptor, 0o600) == 0 else {
            throw StorageError(.unavailable, "cannot make \(path) owner-only: errno \(errno)")
        }
        return true
    }

    /// Writes `data` to the new file `path`, made with mode 0600; an existing file is never overwritten (`false`).
    public static func write(_ data: Data, toNewFile path: String) throws -> Bool {
        guard try createFile(atPath: path) else { return false }
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        try handle.write(contentsOf: data)
        try handle.synchronize()
        return true
    }
}
