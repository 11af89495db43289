import Foundation
import PurserServer

/// What one `purser chaos` run does: how many users, devices and purchases, which faults at which rates, where the
/// server keeps its ledger, and which strategies run. Everything random derives from `seed`.
public struct ChaosConfiguration: Sendable {
    public var users: Int
    public var devices: Int
    public var purchases: Int
    public var seed: UInt64
    /// The fault families switched on, with their rates (see `FaultFamily.unit`).
    public var rates: [FaultFamily: Double]
    public var storage: ChaosStorage
    /// Where the ledger, journals and devices live; a fresh temporary directory when `nil`.
    public var directory: URL?
    /// How many devices act at the same time.
    public var concurrency: Int
    /// The field flows to run next to Purser with the same plan.
    public var baselines: [ChaosStrategy]
    /// Baselines replay the first this-many purchases of the plan (all of them when `nil`).
    public var baselinePurchases: Int?
    /// Broken parts swapped into Purser on purpose, to show the harness can fail.
    public var sabotage: ChaosSabotage
    /// Run the server as this many `purser serve` processes (0: inside this process, where sabotage is possible).
    public var replicas: Int
    /// The `purser` binary the replicas run; required with `replicas` > 0.
    public var executable: URL?
    /// The PostgreSQL server's URL with `storage` `.postgres`; the run uses a fresh database on it. Not used with
    /// `database-failover`, where the run starts its own primary and standby.
    public var databaseURL: String?
    /// Apps of one studio behind the server (`PurserStudio`), each with its own ledger, game backend, devices and
    /// the same plan; 1: today's single app. More than one runs the server inside this process.
    public var apps = 1
    /// What runs the database of `database-failover` (`--database-ha`); the harness's own pair by default.
    public var databaseHA = ChaosDatabaseHA.harness
    /// How often the server reconciles during the run, in seconds (`reconciliation.intervalSeconds`, as `serve`
    /// does every 600 s), so the heal's reconciliation reads only what changed since; 0 (the default): only the
    /// heal's. Under the fault phase's full load a periodic run gets little of the machine (Chaos guide).
    public var reconcileEvery: Double = 0
    /// How the replicas log (`log.format` in their configuration files, `--log-format`): their logs, one file per
    /// start in the run's `logs` folder, are then JSON lines.
    public var logFormat = LogFormat.text

    public init(
        users: Int = 40, devices: Int = 20, purchases: Int = 1_000, seed: UInt64 = 1,
        rates: [FaultFamily: Double] = ChaosConfiguration.allFaults, storage: ChaosStorage = .sqlite,
        directory: URL? = nil, concurrency: Int = 8, baselines: [ChaosStrategy] = ChaosStrategy.baselines,
        baselinePurchases: Int? = nil, sabotage: ChaosSabotage = .init(), replicas: Int = 0, executable: URL? = nil,
        databaseURL: String? = nil
    ) {
        self.users = users
        self.devices = devices
        self.purchases = purchases
        self.seed = seed
        self.rates = rates
        self.storage = storage
        self.directory = directory
        self.concurrency = concurrency
        self.baselines = baselines
        self.baselinePurchases = baselinePurchases
        self.sabotage = sabotage
        self.replicas = replicas
        self.executable = executable
        self.databaseURL = databaseURL
    }

    /// Every fault family at its default rate, but those that need separate server processes.
    public static let allFaults: [FaultFamily: Double] = Dictionary(
        uniqueKeysWithValues: FaultFamily.allCases.filter { !$0.needsReplicas }.map { ($0, $0.defaultRate) })

    /// Every fault family at its default rate, server kills included (with `replicas` > 0).
    public static let allFaultsWithReplicas: [FaultFamily: Double] = Dictionary(
        uniqueKeysWithValues: FaultFamily.allCases.map { ($0, $0.defaultRate) })

    /// The rate of `family`, 0 when it is off, or skipped (a PostgreSQL family on SQLite).
    public func rate(_ family: FaultFamily) -> Double {
        family.needsPostgres && storage != .postgres ? 0 : rates[family] ?? 0
    }

    /// Families asked for that this storage cannot have, and why they are skipped.
    public var skippedFamilies: [FaultFamily] {
        rates.filter { $0.value > 0 && $0.key.needsPostgres && storage != .postgres }.map(\.key).sorted()
    }

    /// Whether the run starts its own PostgreSQL primary and standby (`database-failover` on PostgreSQL).
    public var startsOwnDatabase: Bool { rate(.databaseFailover) > 0 }

    /// The `replicas` `purser serve` processes of `executable`, on `databaseURL` (`nil`: SQLite), with this run's
    /// reconciliation interval and log format.
    func replicaSetup(_ executable: URL, databaseURL: String? = nil) -> ChaosServer.ReplicaSetup {
        var setup = ChaosServer.ReplicaSetup(
            count: replicas, executable: executable, databaseURL: databaseURL, reconcileEvery: reconcileEvery)
        setup.logFormat = logFormat
        return setup
    }

    /// Refuses counts and rates that cannot make a run.
    public func validate() throws(ChaosError) {
        guard users >= 1 else { throw ChaosError(.invalidConfiguration, "--users must be at least 1") }
        guard devices >= 1 else { throw ChaosError(.invalidConfiguration, "--devices must be at least 1") }
        guard purchases >= 1 else { throw ChaosError(.invalidConfiguration, "--purchases must be at least 1") }
        guard concurrency >= 1 else { throw ChaosError(.invalidConfiguration, "--concurrency must be at least 1") }
        guard reconcileEvery >= 0, reconcileEvery.isFinite else {
            throw ChaosError(.invalidConfiguration, "--reconcile-every must be 0 (off) or a number of seconds")
        }
        for (family, rate) in rates where !(0...1).contains(rate) {
            throw ChaosError(.invalidConfiguration, "the rate of \(family.rawValue) must be within 0...1, not \(rate)")
        }
        guard replicas >= 0 else { throw ChaosError(.invalidConfiguration, "--replicas must not be negative") }
        if replicas > 0, executable == nil {
            throw ChaosError(.invalidConfiguration, "--replicas needs the purser binary to start")
        }
        if replicas == 0, let family = rates.keys.sorted().first(where: { $0.needsReplicas && rate($0) > 0 }) {
            throw ChaosError(.invalidConfiguration, "\(family.rawValue) needs the server as processes: pass --replicas")
        }
        if replicas > 0, sabotage.store != nil {
            throw ChaosError(.invalidConfiguration, "a sabotaged ledger runs only inside this process (--replicas 0)")
        }
        if storage == .sqlite, replicas > 1 {
            throw ChaosError(
                .invalidConfiguration, "SQLite serves one replica (one process, one file): --replicas 1, or PostgreSQL")
        }
        if storage == .postgres {
            guard replicas > 0 else {
                throw ChaosError(.invalidConfiguration, "--storage postgres runs the server as processes: --replicas N")
            }
            guard databaseURL != nil || startsOwnDatabase else {
                throw ChaosError(
                    .invalidConfiguration, "--storage postgres needs --database-url (or PURSER_DATABASE_URL)")
            }
        }
        if databaseHA != .harness, !startsOwnDatabase {
            throw ChaosError(
                .invalidConfiguration,
                "--database-ha drives the database of database-failover: --storage postgres with database-failover on")
        }
        guard (1...4).contains(apps) else { throw ChaosError(.invalidConfiguration, "--apps must be within 1...4") }
        if apps > 1, replicas > 0 {
            throw ChaosError(.invalidConfiguration, "--apps runs the studio inside this process (--replicas 0)")
        }
        if baselines.contains(.purser) {
            throw ChaosError(.invalidConfiguration, "purser is not a baseline")
        }
    }
}
