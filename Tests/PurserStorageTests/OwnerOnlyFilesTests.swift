import Foundation
import Logging
import PurserCore
import Testing

@testable import PurserStorage

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A ledger holds operators' password hashes and every player's purchases: its directory, the file, SQLite's -wal
/// and -shm beside it and a backup of it are their owner's alone (0700, 0600), whatever the umask (they were
/// created 0755 and 0644 under the usual 022, readable by every user of the machine). The modes are set with chmod
/// after creation, so a umask can only narrow them, never widen them.
@Suite struct OwnerOnlyFilesTests {
    static func mode(_ path: String) throws -> Int {
        try #require(FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber).intValue
            & 0o777
    }

    @Test func aNewLedgerItsDirectoriesAndItsBackupAreTheOwnersAloneWhateverTheUmask() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("purser-modes-\(UUID())")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        let data = root.appendingPathComponent("data")
        let ledger = data.appendingPathComponent("apps/com.example.racers.sqlite").path
        // The usual umask, whatever this process was started with: it leaves group and others read access, which
        // what Purser creates must not get.
        let previous = umask(0o022)
        let store: SQLiteLedgerStore
        do {
            store = try await SQLiteLedgerStore.open(path: ledger, logger: Logger(label: "test"))
            try await store.migrate()
            _ = try await store.applyWalletTransaction(
                .init(id: "m-1", userID: "kim", amounts: ["gold": 5], reason: "r", cause: "admin"), now: Date())
            let copy = root.appendingPathComponent("backups/copy.sqlite").path
            try OwnerOnlyFiles.createDirectory(atPath: root.appendingPathComponent("backups").path)
            _ = try await SQLiteLedgerStore.backup(ledger: ledger, to: copy, logger: Logger(label: "test"))
            umask(previous)
            #expect(try Self.mode(copy) == 0o600)
            #expect(try Self.mode(root.appendingPathComponent("backups").path) == 0o700)
        } catch {
            umask(previous)
            throw error
        }
        for directory in [data.path, data.appendingPathComponent("apps").path] {
            #expect(try Self.mode(directory) == 0o700, "\(directory)")
        }
        for suffix in ["", "-wal", "-shm", ".lock"] {
            #expect(FileManager.default.fileExists(atPath: ledger + suffix), "\(suffix)")
            #expect(try Self.mode(ledger + suffix) == 0o600, "\(ledger + suffix)")
        }
        try await store.close()
        // What exists is left as it is: an operator's own choice of mode stands.
        try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: ledger)
        let reopened = try await SQLiteLedgerStore.open(path: ledger, logger: Logger(label: "test"))
        #expect(try Self.mode(ledger) == 0o640)
        try await reopened.close()
        #expect(try OwnerOnlyFiles.write(Data("x".utf8), toNewFile: ledger) == false)
    }
}
