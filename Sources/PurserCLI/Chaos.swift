import ArgumentParser
import Foundation
import PurserChaos
import PurserServer

extension Purser {
    /// `purser chaos`: drives simulated users and devices through purchases while faults hit every part, heals,
    /// and checks that nothing was lost, doubled or misattributed; the field's usual flows run alongside.
    struct Chaos: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "chaos",
            abstract: "Fault-injection run: prove zero lost, doubled or misattributed purchases.",
            discussion: """
                Runs a real Purser server (embedded SQLite, App Store simulator) in this process, drives simulated \
                devices through it with seeded faults, heals, and checks the invariants against the simulator's \
                record. Exits 1 when Purser broke an invariant, printing the seed and the transaction ids. \
                Fault families: \(FaultFamily.allCases.map(\.rawValue).joined(separator: ", ")).
                """)

        @Option(help: "Simulated users.") var users = 40
        @Option(help: "Simulated devices.") var devices = 20
        @Option(help: "Purchases in the fault phase.") var purchases = 1_000
        @Option(help: "The seed (a number, or 'random'); the same seed replays the same plan.") var seed = "1"
        @Option(help: "Fault families to switch on: 'all', 'none', or a comma-separated list.") var faults = "all"
        @Option(name: .customLong("rate"), help: "A family's rate, as family=0.1 (repeatable).") var rates: [String] =
            []
        @Option(
            help: ArgumentHelp(
                "Ledger backend: sqlite or postgres (postgres needs --replicas, and --database-url unless "
                    + "database-failover is on: then the run starts its own primary and synchronous standby; "
                    + "database-failover is skipped on sqlite)."))
        var storage = "sqlite"
        @Option(
            help: ArgumentHelp(
                "Run the server as N real 'purser serve' processes behind a round-robin front (0: inside this "
                    + "process). SQLite allows 1; server-kill needs at least 1."))
        var replicas = 0
        @Option(
            name: .customLong("database-url"),
            help: ArgumentHelp(
                "PostgreSQL for --storage postgres (default: PURSER_DATABASE_URL); the run's tables go there. "
                    + "Not used with database-failover (the run starts its own servers)."))
        var databaseURL: String?
        @Option(
            help: "Where the run keeps its files (default: a temporary directory, removed afterwards unless it failed)."
        )
        var directory: String?
        @Option(
            name: .customLong("database-ha"),
            help: ArgumentHelp(
                "What runs database-failover's PostgreSQL: harness (the run's own primary and standby, promoted by "
                    + "the run), patroni (scripts/postgres-ha.sh: etcd, three servers under Patroni in synchronous "
                    + "mode, pgbouncer; the replicas get the three servers' URL) or patroni-pgbouncer (the same, the "
                    + "replicas through pgbouncer in transaction pool mode)."))
        var databaseHA = "harness"
        @Option(
            name: .customLong("ha-script"),
            help: ArgumentHelp(
                "postgres-ha.sh for --database-ha patroni (default: scripts/postgres-ha.sh of the working directory "
                    + "or of the checkout the purser binary was built in)."))
        var haScript: String?
        @Option(help: "Devices acting at the same time.") var concurrency = 8
        @Option(
            help: ArgumentHelp(
                "Seconds between the server's own reconciliations during the run (reconciliation.intervalSeconds, "
                    + "600 in serve); the heal's reconciliation then reads only what changed since. 0 (default): "
                    + "only the heal's, from the ledger's first transaction."))
        var reconcileEvery: Double = 0
        @Option(
            help: ArgumentHelp(
                "Apps of one studio behind the server, each with its own ledger, game backend and devices, all "
                    + "running the plan at once; the run then also checks that nothing lands in another app's ledger "
                    + "or backend (in-process server only)."))
        var apps = 1
        @Option(
            help:
                "Baselines to run next to Purser: 'all', 'none', or a list of \(ChaosStrategy.baselines.map(\.rawValue).joined(separator: ", "))."
        )
        var baselines = "all"
        @Option(help: "Baselines replay only the first N purchases of the plan (default: all).")
        var baselinePurchases: Int?
        @Option(
            name: .customLong("log-format"),
            help: "The replicas' log.format (with --replicas): text (default) or json, one object per line in logs/.")
        var logFormat = "text"
        @Flag(help: "Print the report as JSON.") var json = false
        @Flag(help: "No progress lines on standard error.") var quiet = false

        func run() async throws {
            let configuration = try makeConfiguration()
            let run = ChaosRun(
                configuration: configuration, progress: quiet ? ChaosProgress(sink: nil) : .standardError)
            FileHandle.standardError.write(Data("chaos: seed \(configuration.seed)\n".utf8))
            let report: ChaosReport
            do {
                report = try await run.run()
            } catch let error as ChaosError {
                throw ValidationError(error.message)
            }
            if json {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
                print(String(decoding: try encoder.encode(report), as: UTF8.self))
            } else {
                print(report.text)
            }
            if !report.passed {
                let kept = report.evidence.map { "; evidence kept in \($0)" } ?? ""
                FileHandle.standardError.write(Data("chaos: FAILED with seed \(report.seed)\(kept)\n".utf8))
                throw ExitCode(1)
            }
        }

        func makeConfiguration() throws -> ChaosConfiguration {
            let seed: UInt64
            if self.seed == "random" {
                seed = UInt64.random(in: 1...UInt64(UInt32.max))
            } else if let value = UInt64(self.seed) {
                seed = value
            } else {
                throw ValidationError("--seed must be a non-negative number or 'random', not '\(self.seed)'")
            }
            var rates: [FaultFamily: Double] = [:]
            switch faults {
            case "all": rates = replicas > 0 ? ChaosConfiguration.allFaultsWithReplicas : ChaosConfiguration.allFaults
            case "none": break
            default:
                for name in faults.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) {
                    guard let family = FaultFamily(rawValue: name) else {
                        throw ValidationError(
                            "unknown fault family '\(name)'; known: "
                                + FaultFamily.allCases.map(\.rawValue).joined(separator: ", "))
                    }
                    rates[family] = family.defaultRate
                }
            }
            for item in self.rates {
                let parts = item.split(separator: "=", maxSplits: 1).map(String.init)
                guard parts.count == 2, let family = FaultFamily(rawValue: parts[0]), let rate = Double(parts[1]) else {
                    throw ValidationError("--rate takes family=number (e.g. client-crash=0.1), not '\(item)'")
                }
                rates[family] = rate
            }
            guard let storage = ChaosStorage(rawValue: storage) else {
                throw ValidationError(
                    "--storage must be one of \(ChaosStorage.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            let baselines: [ChaosStrategy]
            switch self.baselines {
            case "all": baselines = ChaosStrategy.baselines
            case "none": baselines = []
            default:
                baselines = try self.baselines.split(separator: ",").map { name in
                    guard let strategy = ChaosStrategy(rawValue: String(name)), strategy != .purser else {
                        throw ValidationError(
                            "unknown baseline '\(name)'; known: "
                                + ChaosStrategy.baselines.map(\.rawValue).joined(separator: ", "))
                    }
                    return strategy
                }
            }
            var configuration = ChaosConfiguration(
                users: users, devices: devices, purchases: purchases, seed: seed, rates: rates, storage: storage,
                directory: directory.map { URL(fileURLWithPath: $0) }, concurrency: concurrency, baselines: baselines,
                baselinePurchases: baselinePurchases, replicas: replicas,
                executable: replicas > 0 ? Purser.executable : nil,
                databaseURL: databaseURL ?? ProcessInfo.processInfo.environment["PURSER_DATABASE_URL"])
            configuration.apps = apps
            configuration.reconcileEvery = reconcileEvery
            guard let format = LogFormat(rawValue: logFormat) else {
                throw ValidationError("--log-format must be text or json, not '\(logFormat)'")
            }
            configuration.logFormat = format
            configuration.databaseHA = try makeDatabaseHA()
            do {
                try configuration.validate()
            } catch {
                throw ValidationError(error.message)
            }
            return configuration
        }

        /// `--database-ha` and the script it drives.
        func makeDatabaseHA() throws -> ChaosDatabaseHA {
            guard databaseHA != "harness" else { return .harness }
            guard ["patroni", "patroni-pgbouncer"].contains(databaseHA) else {
                throw ValidationError(
                    "--database-ha must be harness, patroni or patroni-pgbouncer, not '\(databaseHA)'")
            }
            let relative = "scripts/postgres-ha.sh"
            var candidates = [haScript, FileManager.default.currentDirectoryPath + "/" + relative].compactMap { $0 }
            // The checkout a `.build/…/purser` binary was built in.
            var folder = Purser.executable.deletingLastPathComponent()
            for _ in 0..<4 {
                folder.deleteLastPathComponent()
                candidates.append(folder.appendingPathComponent(relative).path)
            }
            guard let script = candidates.first(where: FileManager.default.isReadableFile(atPath:)) else {
                throw ValidationError(
                    "--database-ha \(databaseHA) drives \(relative): run from the repository or give --ha-script PATH")
            }
            return .patroni(script: URL(fileURLWithPath: script), throughPgbouncer: databaseHA == "patroni-pgbouncer")
        }
    }
}
