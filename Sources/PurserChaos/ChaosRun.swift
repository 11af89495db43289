import AppStoreSimulator
import AppStoreVerification
import Foundation
import Logging
import Purser
import PurserCore
import PurserStorage

/// One `purser chaos` run: plan from the seed, Purser through the fault phase and the heal phase, the invariant
/// check, then each baseline with the same plan, and the report.
public struct ChaosRun: Sendable {
    public let configuration: ChaosConfiguration
    public let progress: ChaosProgress

    public init(configuration: ChaosConfiguration, progress: ChaosProgress = .standardError) {
        self.configuration = configuration
        self.progress = progress
    }

    public func run() async throws -> ChaosReport {
        try configuration.validate()
        let plan = ChaosPlan(configuration: configuration)
        let base =
            configuration.directory
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("purser-chaos-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
        // A failed run keeps its directory, with the evidence its lanes wrote (`ChaosEvidence`).
        var keep = configuration.directory != nil
        defer { if !keep { try? FileManager.default.removeItem(at: base) } }
        let ticker = Task { await progress.run(every: ChaosProgress.interval) }
        defer { ticker.cancel() }

        var results: [ChaosReport.StrategyResult] = []
        let (purser, healing) = try await runPurser(plan, directory: base.appendingPathComponent("purser"))
        results.append(purser.result)
        for strategy in configuration.baselines {
            let sample = plan.prefix(configuration.baselinePurchases ?? plan.purchaseCount)
            results.append(
                try await runBaseline(
                    strategy, plan: sample,
                    directory: base.appendingPathComponent(strategy.rawValue)))
        }
        var report = ChaosReport(
            seed: configuration.seed, users: configuration.users, devices: configuration.devices,
            purchases: configuration.purchases, storage: configuration.storage, replicas: configuration.replicas,
            families: familyRows(plan: plan, lanes: purser.lanes, serverAPIFaults: healing.serverAPIFaults),
            strategies: results, reconciliation: healing.reconciliation, webhooks: healing.webhooks,
            wallet: healing.wallet.map(ChaosReport.Wallet.init),
            skipped: configuration.skippedFamilies.map(\.rawValue),
            apps: configuration.apps > 1 ? configuration.apps : nil,
            databaseHA: configuration.databaseHA.title,
            passed: purser.result.violationCount == 0 && purser.result.failovers.allSatisfy { $0.wrongAnswers == 0 }
                && (!configuration.startsOwnDatabase || !purser.result.failovers.isEmpty))
        if !report.passed {
            keep = true
            report.evidence = base.path
        }
        return report
    }

    private func runPurser(_ plan: ChaosPlan, directory: URL) async throws
        -> ((result: ChaosReport.StrategyResult, lanes: [[Violation]]), PurserDriver.Healing)
    {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        guard configuration.startsOwnDatabase else { return try await runPurser(plan, directory: directory, nil) }
        let database = try await startDatabase(in: directory.appendingPathComponent("postgres"))
        let failovers = DatabaseFailovers(database: database)
        do {
            let result = try await runPurser(plan, directory: directory, failovers)
            await failovers.settle()
            await database.stop()
            return result
        } catch {
            await failovers.settle()
            await database.stop()
            throw error
        }
    }

    private func runPurser(_ plan: ChaosPlan, directory: URL, _ failovers: DatabaseFailovers?) async throws
        -> ((result: ChaosReport.StrategyResult, lanes: [[Violation]]), PurserDriver.Healing)
    {
        let clock = ChaosClock()
        let body:
            @Sendable (ChaosServer) async throws -> (
                (result: ChaosReport.StrategyResult, lanes: [[Violation]]), PurserDriver.Healing
            ) = { server in
                try await AsyncHTTPClientTransport.with(
                    connections: configuration.concurrency * 2, timeout: .seconds(10)
                ) {
                    try await runPurser(plan, on: server, directory: directory, transport: $0, failovers: failovers)
                }
            }
        guard configuration.replicas > 0, let executable = configuration.executable else {
            guard configuration.apps > 1 else {
                return try await ChaosServer.run(
                    directory: directory, clock: clock, sabotage: configuration.sabotage, seed: configuration.seed,
                    reconcileEvery: configuration.reconcileEvery, body)
            }
            return try await ChaosServer.runStudio(
                apps: configuration.apps, directory: directory, clock: clock, sabotage: configuration.sabotage,
                seed: configuration.seed, reconcileEvery: configuration.reconcileEvery
            ) { servers in
                try await AsyncHTTPClientTransport.with(
                    connections: configuration.concurrency * 2 * servers.count, timeout: .seconds(10)
                ) { try await runApps(plan, on: servers, directory: directory, transport: $0) }
            }
        }
        if let failovers {
            return try await ChaosServer.runReplicas(
                configuration.replicaSetup(executable, databaseURL: failovers.database.url()), directory: directory,
                clock: clock, body)
        }
        guard configuration.storage == .postgres, let server = configuration.databaseURL else {
            return try await ChaosServer.runReplicas(
                configuration.replicaSetup(executable), directory: directory, clock: clock, body)
        }
        // A fresh database on the server for this run, dropped afterwards.
        var logger = Logger(label: "purser.chaos")
        logger.logLevel = .critical
        let name = "purser_chaos_" + String(UInt64.random(in: .min ... .max), radix: 16)
        let url = try await PostgresLedgerStore.createDatabase(name, besides: server, logger: logger)
        do {
            let result = try await ChaosServer.runReplicas(
                configuration.replicaSetup(executable, databaseURL: url), directory: directory, clock: clock, body)
            try? await PostgresLedgerStore.dropDatabase(name, besides: server, logger: logger)
            return result
        } catch {
            try? await PostgresLedgerStore.dropDatabase(name, besides: server, logger: logger)
            throw error
        }
    }

    private func runPurser(
        _ plan: ChaosPlan, on server: ChaosServer, directory: URL,
        transport: any PurserHTTPTransport, failovers: DatabaseFailovers?
    ) async throws
        -> ((result: ChaosReport.StrategyResult, lanes: [[Violation]]), PurserDriver.Healing)
    {
        progress.begin(ChaosStrategy.purser.title, total: plan.purchaseCount) {
            server.replicas?.memory.map(\.resident) ?? []
        }
        let lane = try await runLane(plan, on: server, directory: directory, transport: transport, failovers: failovers)
        return (await addingAppleRefusals(of: server, to: (lane.result, [lane.violations])), lane.healing)
    }

    /// What Purser did for one app: its result, every violation, the heal phase, and the harness's record.
    struct Lane: Sendable {
        var result: ChaosReport.StrategyResult
        var violations: [Violation]
        var healing: PurserDriver.Healing
        var record: ChaosRecord
        var server: ChaosServer
    }

    /// One app's run through the fault and heal phases, and its invariants (progress already begun).
    func runLane(
        _ plan: ChaosPlan, on server: ChaosServer, directory: URL,
        transport: any PurserHTTPTransport, failovers: DatabaseFailovers?
    ) async throws -> Lane {
        let record = ChaosRecord()
        let driver = PurserDriver(
            server: server, plan: plan, configuration: configuration, record: record,
            progress: progress, directory: directory.appendingPathComponent("devices"),
            transport: transport,
            spender: SpendingBackend(
                url: server.url, token: ChaosServer.adminToken, app: server.app, transport: transport),
            failovers: failovers)
        let started = Date()
        let apps = try await driver.faultPhase()
        let faultSeconds = Date().timeIntervalSince(started)
        let healing = try await driver.heal(apps)
        progress.note("checking the invariants")
        let violations = try await InvariantChecker(
            appStore: server.appStore, ledger: PurserLedgerView(store: server.store), record: record,
            users: userIDs, gameBackend: server.gameBackend, wallet: (server.store, driver.spender), app: server.app
        ).violations()
        var result = await result(
            .purser, plan: plan, record: record, appStore: server.appStore,
            violations: violations, faultSeconds: faultSeconds, healSeconds: healing.seconds)
        result.kills = server.replicas?.kills ?? []
        result.failovers = failovers?.failovers ?? []
        result.tenths = progress.tenths
        // VmHWM is kept lazily: memory handed back (a `madvise` by the allocator) can take the high-water mark with it,
        // so a tenth's reading can exceed it (a fresh-clone run read 80 KB more at a tenth): the peak is the larger.
        result.harnessPeakResident = ([ProcessMemory.current.peakResident] + progress.tenths.map(\.harnessResident))
            .max()
        result.replicasPeakResident = server.replicas?.memory.enumerated().map { index, memory in
            ([memory.peakResident] + progress.tenths.compactMap { $0.replicasResident.dropFirst(index).first }).max()
                ?? memory.peakResident
        }
        var healed = healing
        healed.wallet = driver.spender.tally
        if !violations.isEmpty {
            try await keepEvidence(of: violations, server: server, record: record, plan: plan, in: directory)
        }
        return Lane(
            result: result, violations: violations, healing: healed, record: record, server: server)
    }

    /// Writes what `violations` need to be explained (`ChaosEvidence`) into `directory/evidence`, while the server is
    /// still up.
    func keepEvidence(
        of violations: [Violation], server: ChaosServer, record: ChaosRecord, plan: ChaosPlan, in directory: URL,
        named name: String = "evidence"
    ) async throws {
        let place = directory.appendingPathComponent(name)
        progress.note("keeping the evidence of \(violations.count) violations in \(place.path)")
        let problems = await ChaosEvidence(server: server, record: record, plan: plan, violations: violations)
            .write(to: place)
        for problem in problems { progress.note("evidence incomplete: \(problem)") }
    }

    private func runBaseline(_ strategy: ChaosStrategy, plan: ChaosPlan, directory: URL) async throws
        -> ChaosReport.StrategyResult
    {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let record = ChaosRecord()
        progress.begin(strategy.title, total: plan.purchaseCount)
        let started = Date()
        let (appStore, server, healSeconds) = try await FieldDriver(
            strategy: strategy, plan: plan, configuration: configuration, record: record, progress: progress,
            directory: directory, clock: ChaosClock()
        ).run()
        let elapsed = Date().timeIntervalSince(started) - healSeconds
        let violations = try await InvariantChecker(
            appStore: appStore, ledger: FieldLedgerView(server: server),
            record: record, users: userIDs
        ).violations()
        return await result(
            strategy, plan: plan, record: record, appStore: appStore, violations: violations,
            faultSeconds: elapsed, healSeconds: healSeconds)
    }

    var userIDs: [String] { (0..<configuration.users).map { "user-\($0 + 1)" } }

    func result(
        _ strategy: ChaosStrategy, plan: ChaosPlan, record: ChaosRecord, appStore: SimulatedAppStore,
        violations: [Violation], faultSeconds: Double, healSeconds: Double
    ) async
        -> ChaosReport.StrategyResult
    {
        var (refunded, partly) = (0, 0)
        for charge in record.charges {
            guard let transaction = await appStore.purchase(transactionID: charge.transactionID)?.transaction,
                let share = transaction.appleTransaction().revokedShare
            else { continue }
            refunded += 1
            if share < RefundRules.whole { partly += 1 }
        }
        var counts: [Violation.Kind: Int] = [:]
        for violation in violations { counts[violation.kind, default: 0] += 1 }
        return ChaosReport.StrategyResult(
            strategy: strategy, title: strategy.title, purchases: plan.purchaseCount, charged: record.charges.count,
            refunded: refunded, partlyRefunded: partly, lateCharges: record.lateCharges,
            uncharged: strategy == .purser ? record.uncharged : nil, counts: counts,
            faultPhaseSeconds: faultSeconds,
            healSeconds: healSeconds,
            purchasesPerSecond: Double(plan.purchaseCount) / max(faultSeconds, 0.001),
            violations: Array(violations.prefix(50)))
    }

    /// Each family's row: how often the plan met it (once per app that ran the plan, `lanes`), how many of those
    /// purchases healed, and the violations among them; App Store Server API faults are the run's own count.
    func familyRows(plan: ChaosPlan, lanes: [[Violation]], serverAPIFaults: Int) -> [ChaosReport.FamilyRow] {
        let injected = plan.injected
        var families: [Int: Set<FaultFamily>] = [:]
        for device in plan.devices {
            for purchase in device.purchases { families[purchase.index] = purchase.families }
        }
        var broken: [FaultFamily: Int] = [:]
        var counted: [FaultFamily: Int] = [:]
        for violations in lanes {
            var brokenHere: [FaultFamily: Set<Int>] = [:]
            for violation in violations {
                guard let index = violation.purchase else { continue }
                for family in families[index] ?? [] {
                    brokenHere[family, default: []].insert(index)
                    counted[family, default: 0] += 1
                }
            }
            broken.merge(brokenHere.mapValues(\.count), uniquingKeysWith: +)
        }
        return FaultFamily.allCases.filter { configuration.rate($0) > 0 }.map { family in
            let count =
                family == .serverAPIErrors ? serverAPIFaults : injected[family, default: 0] * lanes.count
            return ChaosReport.FamilyRow(
                family: family, unit: family.unit, rate: configuration.rate(family), injected: count,
                healed: count - broken[family, default: 0], violations: counted[family, default: 0])
        }
    }
}
