import ArgumentParser
import Configuration
import Foundation
import Logging
import PurserServer
import PurserStorage

extension Purser {
    /// `purser backup --to FILE`: a consistent copy of a SQLite ledger while `serve` keeps answering.
    struct Backup: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Copy the SQLite ledger while servers use it, fsync and check the copy.",
            discussion: """
                The copy is one read snapshot of the ledger (SQLite's VACUUM INTO): every decision committed before \
                it started is in it, none after. It is fsynced, checked with SQLite's integrity_check and the \
                ledger check, and what it holds is printed. For PostgreSQL use pg_dump or a base backup with WAL \
                archiving (the server guide, "SQLite and PostgreSQL").
                """)

        @OptionGroup var ledger: LedgerFileOptions
        @Option(help: "The new file to write; an existing file is never overwritten.") var to: String

        func run() async throws {
            let path = try await ledger.sqlitePath(for: "backup")
            let report = try await SQLiteLedgerStore.backup(ledger: path, to: to, logger: ledger.logger)
            let size = (try? FileManager.default.attributesOfItem(atPath: to)[.size] as? Int) ?? 0
            print("backup: \(to) (\(size) bytes), a snapshot of \(path) taken while it stayed in use")
            print(Self.describe(report))
            guard report.isSound else { throw ExitCode(1) }
        }

        /// What a checked copy holds, in lines.
        static func describe(_ report: LedgerCopyReport) -> String {
            let relabelled = report.relabelledFrom.map { ", re-labelled from \($0) (--as-app)" } ?? ""
            return [
                "app: " + (report.app.map { $0 + relabelled } ?? "none recorded yet (serve records its app at start)"),
                "SQLite integrity_check: \(report.sqliteCheck)",
                Purser.LedgerCommand.Check.text(report.ledger, ledger: "the copy"),
            ].joined(separator: "\n")
        }
    }

    /// `purser restore --from FILE`: puts a backup in place of the SQLite ledger, refused while anyone has it open,
    /// and refused for a backup of another app's ledger unless `--as-app` says to make it this app's.
    struct Restore: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Replace the SQLite ledger with a checked backup; refused while a server has it open.",
            discussion: """
                A ledger records the app (bundle id) it belongs to. A backup of another app's ledger is refused, \
                naming both apps. --as-app restores it all the same as the ledger of the app --app names (default: \
                the first app): the restored copy records that app, its transactions keep the bundle ids Apple \
                signed. Use it for a ledger whose app's bundle id changed, not to move a game's money to another game.
                """)

        @OptionGroup var ledger: LedgerFileOptions
        @Option(help: "The backup to restore (from purser backup).") var from: String
        @Flag(
            name: .customLong("as-app"),
            help: "Restore a backup of another app's ledger as the ledger of the app --app names (re-labelled).")
        var asApp = false

        func run() async throws {
            let (path, app) = try await ledger.sqliteLedger(for: "restore")
            let report: LedgerCopyReport
            do {
                report = try await SQLiteLedgerStore.restore(
                    ledger: path, from: from, app: app, relabel: asApp, logger: ledger.logger)
            } catch let error as StorageError where error.code == .otherApp {
                throw StorageError(
                    .otherApp,
                    error.message + ". Restore a backup of \(app)'s ledger, or add --as-app to make this one "
                        + "\(app)'s ledger on purpose (a bundle id that changed)")
            }
            print("restored: \(path) from \(from)")
            print(Purser.Backup.describe(report))
        }
    }
}

/// Where the SQLite ledger is: the configuration file and the data directory, as `serve` finds it.
struct LedgerFileOptions: ParsableArguments {
    @Option(help: "The server's JSON configuration file.") var config: String?
    @Option(name: .customLong("data-dir"), help: "The data directory holding the SQLite ledger.")
    var dataDirectory: String?
    @OptionGroup var app: AppOption

    var logger: Logger {
        var logger = Logger(label: "purser.backup")
        logger.logLevel = .warning
        return logger
    }

    /// The SQLite ledger's path; a configuration on PostgreSQL is refused with where to look instead.
    func sqlitePath(for command: String) async throws -> String {
        try await sqliteLedger(for: command).path
    }

    /// The SQLite ledger's path and the app (bundle id) it serves.
    func sqliteLedger(for command: String) async throws -> (path: String, app: String) {
        var flags: [AbsoluteConfigKey: ConfigContent] = [:]
        flags["dataDirectory"] = dataDirectory.map(ConfigContent.string)
        let settings = try app.settings(await ServerConfiguration.loadForCommand(file: config, flags: flags))
        guard settings.database.url == nil else {
            throw ConfigurationError(
                "\(command) copies a SQLite ledger; this configuration's ledger is PostgreSQL (database.url): use "
                    + "pg_dump or a base backup with WAL archiving, as the server guide's \"SQLite and PostgreSQL\" shows"
            )
        }
        return (settings.sqliteLedgerPath, settings.bundleId)
    }
}
