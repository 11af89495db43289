import Foundation
import Logging
import Metrics
import PurserStorage
import ServiceLifecycle

/// `serve`'s own backups of its SQLite ledger (`backup.intervalSeconds`): every `interval`, under the ledger's `backup`
/// lease, the copy `purser backup` makes (one snapshot, fsynced, checked) goes to `directory` as
/// `purser-<UTC time>.sqlite` (written as `….partial` and renamed once checked); once it checks sound, copies beyond
/// the newest `keep` are deleted, so for a moment there are `keep + 1`. A copy that does not check sound is kept for
/// a person to look at and deletes nothing.
public struct BackupService: Service, CustomStringConvertible {
    let ledger: String
    let directory: String
    let keep: Int
    let interval: Duration
    let lease: LeasedWork
    let logger: Logger
    let now: @Sendable () -> Date

    /// One copy taken: where, its check, and the older copies it let go.
    struct Taken: Sendable {
        var file: String
        var report: LedgerCopyReport
        var deleted: [String]
    }

    public init(
        ledger: String, directory: String, keep: Int, interval: Duration, lease: LeasedWork, logger: Logger,
        now: @escaping @Sendable () -> Date
    ) {
        self.ledger = ledger
        self.directory = directory
        self.keep = max(1, keep)
        self.interval = interval
        self.lease = lease
        self.logger = logger
        self.now = now
    }

    public func run() async throws {
        await lease.repeatEvery(interval) { [self] in
            try await take(at: now())
        } finished: { taken in
            let outcome = taken.report.isSound ? "sound" : "unsound"
            Counter(label: PurserMetrics.Name.backups, dimensions: [("outcome", outcome)]).increment()
            let metadata: Logger.Metadata = [
                "purser.file": "\(taken.file)", "purser.deleted": "\(taken.deleted.count)",
                "purser.findings": "\(taken.report.ledger.findings.count)",
                "purser.sqlite_check": "\(taken.report.sqliteCheck)",
            ]
            if taken.report.isSound {
                Gauge(label: PurserMetrics.Name.backupLastSuccess).record(now().timeIntervalSince1970)
                logger.info("backup taken", metadata: metadata)
            } else {
                logger.error("backup taken but its check failed; older backups kept", metadata: metadata)
            }
        } failed: { error in
            Counter(label: PurserMetrics.Name.backups, dimensions: [("outcome", "failed")]).increment()
            logger.error("backup failed", metadata: ["error": "\(error)"])
        }
    }

    /// Takes one copy now, then lets go of the copies beyond `keep` when it checked sound.
    func take(at moment: Date) async throws -> Taken {
        try OwnerOnlyFiles.createDirectory(atPath: directory)
        // Written under a name no backup has, and given its own once checked: a copy cut short (the process killed
        // during it) is never taken for a backup, and the next take removes it.
        for stale in try FileManager.default.contentsOfDirectory(atPath: directory) where stale.hasSuffix(".partial") {
            try? FileManager.default.removeItem(
                atPath: URL(fileURLWithPath: directory).appendingPathComponent(stale).path)
        }
        let file = URL(fileURLWithPath: directory).appendingPathComponent(Self.fileName(at: moment)).path
        let partial = file + ".partial"
        let report = try await SQLiteLedgerStore.backup(ledger: ledger, to: partial, logger: logger)
        try FileManager.default.moveItem(atPath: partial, toPath: file)
        guard report.isSound else { return Taken(file: file, report: report, deleted: []) }
        let copies = try Self.copies(in: directory)
        var deleted: [String] = []
        for old in copies.dropFirst(keep) {
            let path = URL(fileURLWithPath: directory).appendingPathComponent(old).path
            try FileManager.default.removeItem(atPath: path)
            deleted.append(path)
        }
        return Taken(file: file, report: report, deleted: deleted)
    }

    /// `purser-20261126T081502.123Z.sqlite`: sorts by time.
    static func fileName(at moment: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss.SSS'Z'"
        return "purser-\(formatter.string(from: moment)).sqlite"
    }

    /// The backups in `directory` this service names, newest first.
    static func copies(in directory: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory)
            .filter { $0.hasPrefix("purser-") && $0.hasSuffix("Z.sqlite") }
            .sorted(by: >)
    }

    public var description: String { "BackupService(every: \(interval), into: \(directory), keep: \(keep))" }
}
