import Foundation
import Logging
import NIOPosix

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a backup holds, or a copy about to be restored: SQLite's own check, the ledger check, and its counts.
public struct LedgerCopyReport: Sendable, Hashable {
    /// `PRAGMA integrity_check`'s answer: "ok", or what is broken.
    public var sqliteCheck: String
    public var ledger: LedgerIntegrity
    public var statistics: LedgerStatistics
    /// The app (bundle id) the copy records as its own (`recordedApp()`); `nil` when it records none yet.
    public var app: String?
    /// After a restore with `relabel`: the app the backup recorded before it was re-labelled.
    public var relabelledFrom: String?

    /// Whether it can be restored: SQLite and the ledger check both found nothing.
    public var isSound: Bool { sqliteCheck == "ok" && ledger.findings.isEmpty }
}

extension SQLiteLedgerStore {
    /// Copies the ledger at `path` to `destination` while servers keep using it (`VACUUM INTO` on a connection of its
    /// own: one read snapshot, so the copy is consistent, and the writers go on) in a new file of mode 0600, fsyncs the
    /// copy (SQLite does not), and checks it.
    /// - Throws: `StorageError(.corrupt)` when `destination` exists; `.unavailable` when the ledger cannot be read.
    public static func backup(ledger path: String, to destination: String, logger: Logger) async throws
        -> LedgerCopyReport
    {
        guard !FileManager.default.fileExists(atPath: destination) else {
            throw StorageError(.corrupt, "\(destination) exists; a backup never overwrites a file")
        }
        guard FileManager.default.fileExists(atPath: path) else {
            throw StorageError(.unavailable, "no ledger at \(path)")
        }
        try await NIOThreadPool.singleton.runIfActive {
            // An empty file, made owner-only and exclusively, for SQLite to fill: a copy as private as the ledger.
            guard try OwnerOnlyFiles.createFile(atPath: destination) else {
                throw StorageError(.corrupt, "\(destination) exists; a backup never overwrites a file")
            }
            do {
                let connection = try SQLiteDatabase(path: path, pragmas: connectionPragmas)
                defer { connection.close() }
                _ = try connection.query("VACUUM INTO ?", [.text(destination)])
            } catch {
                try? FileManager.default.removeItem(atPath: destination)
                throw error
            }
            try synchronize(destination)
            try synchronize(URL(fileURLWithPath: destination).deletingLastPathComponent().path)
        }
        return try await check(copy: destination, logger: logger)
    }

    /// Replaces the ledger at `path` with the backup at `backup`, once it checks sound, and only while nobody has the
    /// ledger open (no server, no command): the backup is copied beside the ledger, migrated there when an earlier
    /// release took it (the backup file itself is never changed), checked, fsynced and renamed over the ledger, and
    /// the old ledger's `-wal` and `-shm` files are removed, so none of the old writes is replayed onto it.
    ///
    /// The ledger at `path` serves `app`: a backup that records another app is refused, unless `relabel` says to make
    /// it `app`'s on purpose (its record of its app is rewritten in the restored copy; its transactions keep the
    /// bundle ids Apple signed). A backup that records no app yet is taken; `serve` records `app` at its next start.
    /// - Throws: `StorageError(.inUse)` while the ledger is open; `.corrupt` when the backup is not sound;
    ///   `.otherApp` when it records another app than `app` and `relabel` is false.
    public static func restore(
        ledger path: String, from backup: String, app: String, relabel: Bool = false, logger: Logger,
        now: Date = Date()
    ) async throws -> LedgerCopyReport {
        guard FileManager.default.fileExists(atPath: backup) else {
            throw StorageError(.unavailable, "no backup at \(backup)")
        }
        let staged = path + ".restoring"
        let held = try await NIOThreadPool.singleton.runIfActive { () throws -> SQLiteLedgerLock in
            try FileManager.default.createDirectory(
                at: URL(fileURLWithPath: path).deletingLastPathComponent(), withIntermediateDirectories: true)
            guard let held = try SQLiteLedgerLock.exclusive(ledger: path) else {
                throw StorageError(.inUse, "the ledger at \(path) is open (a running server?); stop it first")
            }
            try? FileManager.default.removeItem(atPath: staged)
            try FileManager.default.copyItem(atPath: backup, toPath: staged)
            return held
        }
        var report: LedgerCopyReport
        do {
            report = try await check(copy: staged, migrating: true, logger: logger)
            if let recorded = report.app, recorded != app {
                guard relabel else {
                    throw StorageError(
                        .otherApp,
                        "the backup at \(backup) is the ledger of the app \(recorded), not of \(app), whose ledger is "
                            + "\(path); nothing was restored")
                }
                try await record(app: app, in: staged, now: now, logger: logger)
                (report.app, report.relabelledFrom) = (app, recorded)
            }
            guard report.isSound else {
                throw StorageError(
                    .corrupt,
                    "the backup is not sound (SQLite: \(report.sqliteCheck); ledger check: "
                        + "\(report.ledger.findings.count) finding(s)); nothing was restored")
            }
            try await NIOThreadPool.singleton.runIfActive {
                for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: staged + suffix) }
                try synchronize(staged)
                guard rename(staged, path) == 0 else {
                    throw StorageError(.unavailable, "cannot replace \(path): errno \(errno)")
                }
                for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
                try synchronize(URL(fileURLWithPath: path).deletingLastPathComponent().path)
            }
        } catch {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: staged + suffix) }
            withExtendedLifetime(held) {}
            throw error
        }
        withExtendedLifetime(held) {}
        return report
    }

    /// SQLite's integrity check, the ledger check and the counts of the ledger file at `copy`, opened without the
    /// open-ledger lock (and migrated first when `migrating`) and closed again.
    static func check(copy: String, migrating: Bool = false, logger: Logger) async throws -> LedgerCopyReport {
        let store: SQLiteLedgerStore
        do {
            store = try await open(path: copy, readers: 1, locked: false, logger: logger)
            if migrating { try await store.migrate() }
        } catch {
            throw StorageError(.corrupt, "\(copy) is not a ledger this purser can read", underlying: error)
        }
        do {
            let sqlite = try await store.read("PRAGMA integrity_check", []).map { try $0.text("integrity_check") }
            let report = LedgerCopyReport(
                sqliteCheck: sqlite.joined(separator: "; "), ledger: try await store.integrity(),
                statistics: try await store.statistics(), app: try await store.recordedApp())
            try await store.close()
            return report
        } catch let error as StorageError where error.code == .outdated {
            try? await store.close()
            throw error
        } catch {
            try? await store.close()
            throw StorageError(.corrupt, "\(copy) is not a ledger this purser can read", underlying: error)
        }
    }

    /// Records `app` as the app of the ledger file at `copy` (opened without the open-ledger lock, and closed).
    private static func record(app: String, in copy: String, now: Date, logger: Logger) async throws {
        let store = try await open(path: copy, readers: 1, locked: false, logger: logger)
        do {
            try await store.recordApp(app, now: now)
            try await store.close()
        } catch {
            try? await store.close()
            throw error
        }
    }

    /// fsync(2) of a file or directory.
    private static func synchronize(_ path: String) throws {
        #if canImport(Glibc)
            let descriptor = Glibc.open(path, O_RDONLY)
        #else
            let descriptor = Darwin.open(path, O_RDONLY)
        #endif
        guard descriptor >= 0 else { throw StorageError(.unavailable, "cannot open \(path): errno \(errno)") }
        #if canImport(Glibc)
            defer { _ = Glibc.close(descriptor) }
        #else
            defer { _ = Darwin.close(descriptor) }
        #endif
        guard fsync(descriptor) == 0 else { throw StorageError(.unavailable, "cannot fsync \(path): errno \(errno)") }
    }
}
