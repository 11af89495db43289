import ArgumentParser
import Configuration
import Foundation
import Logging
import PurserServer
import PurserStorage

extension Purser {
    /// `purser ledger`: the ledger itself.
    struct LedgerCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "ledger", abstract: "Check the ledger itself.", subcommands: [Check.self])
    }
}

extension Purser.LedgerCommand {
    /// `purser ledger check`: the ledger's own fsck, on either store, with `serve` running or not. It changes nothing
    /// (no migration either), prints what it checked and every finding, and exits 1 when there is one.
    struct Check: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check every rule between the ledger's tables; exit 1 with each finding.",
            discussion: """
                Rules: every credited transaction has its credit grants, its transaction.credited event and its \
                audit record; no transaction is credited twice; grants are on the transaction's owner; a delivered \
                order's transaction is credited to the order's user; every wallet transaction has its entries \
                (on its user) and its wallet.changed event. Balances are always summed from the entries; their \
                totals per currency, a checksum of every balance and the rows per table are printed, to compare a \
                copy with its original.
                """)

        @OptionGroup var location: LedgerLocationOptions
        @OptionGroup var app: AppOption
        @Flag(help: "Print the report as JSON.") var json = false

        func run() async throws {
            let settings = try app.settings(await location.settings())
            if settings.database.url == nil, !FileManager.default.fileExists(atPath: settings.sqliteLedgerPath) {
                throw ConfigurationError("no ledger at \(settings.sqliteLedgerPath) (dataDirectory)")
            }
            var logger = Logger(label: "purser.ledger")
            logger.logLevel = .warning
            let store = try await settings.openLedger(logger: logger)
            let report = try await store.whileRunning { try await store.integrity() }
            if json {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
                print(String(decoding: try encoder.encode(report), as: UTF8.self))
            } else {
                let ledger = settings.database.url.map(Self.withoutCredentials) ?? "SQLite \(settings.sqliteLedgerPath)"
                print(Self.text(report, ledger: ledger))
            }
            guard report.findings.isEmpty else { throw ExitCode(1) }
        }

        /// `PostgreSQL host:port[,host:port…]/db`: the URL without its user and password.
        static func withoutCredentials(_ url: String) -> String {
            guard let configuration = try? PostgresLedgerStore.Configuration(url: url) else { return "PostgreSQL" }
            let servers = configuration.servers.map { "\($0.host):\($0.port)" }.joined(separator: ",")
            let afterScheme = url.components(separatedBy: "://").dropFirst().joined(separator: "://")
            let path = afterScheme.drop { $0 != "/" }.prefix { $0 != "?" && $0 != "#" }
            return "PostgreSQL \(servers)\(path)"
        }

        static func text(_ report: LedgerIntegrity, ledger: String) -> String {
            let totals = report.totals.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
            var lines = [
                "ledger: \(ledger)",
                "checked: \(report.creditedTransactions) credited transactions, \(report.orders) orders, "
                    + "\(report.walletTransactions) wallet transactions",
                "balances' totals: " + (totals.isEmpty ? "none" : totals.joined(separator: ", ")),
                "balances' checksum: \(report.balancesChecksum)",
                "rows: " + LedgerIntegrity.tables.map { "\($0) \(report.rows[$0] ?? 0)" }.joined(separator: ", "),
            ]
            if report.findings.isEmpty {
                lines.append("ok: every rule holds")
            } else {
                lines.append("\(report.findings.count) finding(s):")
                lines += report.findings.map { "  \($0)" }
            }
            return lines.joined(separator: "\n")
        }
    }
}
