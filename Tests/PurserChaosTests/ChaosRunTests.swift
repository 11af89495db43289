import Foundation
import PurserChaos
import Testing

/// `purser chaos` as a library: every fault family against Purser and the field's flows, and Purser with a broken
/// part swapped in, which the harness must catch.
@Suite struct ChaosRunTests {
    /// Every family on, at rates high enough that each is met in a short run.
    static func configuration(
        seed: UInt64, purchases: Int = 160, baselines: [ChaosStrategy] = ChaosStrategy.baselines,
        sabotage: ChaosSabotage = .init()
    ) -> ChaosConfiguration {
        var rates = ChaosConfiguration.allFaults
        for (family, rate) in rates {
            rates[family] = max(rate, family.unit == .purchase ? 0.08 : 0.3)
        }
        return ChaosConfiguration(
            users: 12, devices: 8, purchases: purchases, seed: seed, rates: rates,
            concurrency: 8, baselines: baselines, sabotage: sabotage)
    }

    /// Runs a configuration the harness must fail, and removes the evidence a failed run keeps (the test reads the
    /// report, not the directory), so the suite leaves nothing in the temporary directory.
    static func failingRun(_ configuration: ChaosConfiguration) async throws -> ChaosReport {
        let report = try await ChaosRun(configuration: configuration, progress: ChaosProgress(sink: nil)).run()
        if let evidence = report.evidence { try? FileManager.default.removeItem(atPath: evidence) }
        return report
    }

    @Test func purserHealsEveryFaultFamilyWhileEachFieldFlowLosesOrDoubles() async throws {
        let report = try await ChaosRun(configuration: Self.configuration(seed: 7), progress: ChaosProgress(sink: nil))
            .run()
        let purser = try #require(report.purser)
        #expect(report.passed, "\(report.text)")
        #expect(purser.violationCount == 0)
        Self.expectEveryPurchaseChargedOrRefusedBeforeAnyCharge(purser)
        #expect(purser.lateCharges > 0, "no slow payment landed after its buy answered:\n\(report.text)")
        for row in report.families {
            #expect(row.injected > 0, "\(row.family.rawValue) was never injected")
            #expect(row.healed == row.injected && row.violations == 0, "\(row.family.rawValue)")
        }
        for baseline in ChaosStrategy.baselines {
            let result = try #require(report.strategies.first { $0.strategy == baseline })
            let broken = result.count(.lost) + result.count(.doubled) + result.count(.misattributed)
            #expect(broken > 0, "\(baseline.rawValue) lost, doubled and misattributed nothing:\n\(report.text)")
        }
        // The heal phase's server-side finishing told Apple about credits no app finished (the invariant check also
        // holds every transaction the server finished at Apple to a credit in the ledger).
        let finished = report.reconciliation.firstMatch(of: /finishing at Apple: finished (\d+)/).flatMap { Int($0.1) }
        #expect((finished ?? 0) > 0, "\(report.reconciliation)")
        let webhooks = try #require(report.webhooks)
        #expect(webhooks.events > 0 && webhooks.delivered == webhooks.events, "\(webhooks.line)")
        #expect(webhooks.undelivered == 0 && webhooks.dead == 0, "\(webhooks.line)")
        #expect(webhooks.applied == webhooks.events, "the game backend applied each event once: \(webhooks.line)")
        #expect(webhooks.faulted > 0 && webhooks.retries > 0, "\(webhooks.line)")
        #expect(webhooks.refused == 0)
        let finishFirst = try #require(report.strategies.first { $0.strategy == .finishThenVerify })
        #expect(finishFirst.count(.finishedBeforeDecision) > 0)
        let noDedup = try #require(report.strategies.first { $0.strategy == .noDeduplication })
        #expect(noDedup.count(.doubled) > 0)
        // The fault phase by tenths: ten rates that add up to the run, and the memory it held.
        let tenths = try #require(purser.tenths)
        #expect(tenths.count == 10)
        #expect(tenths.allSatisfy { $0.purchasesPerSecond > 0 && $0.harnessResident > 0 })
        #expect(zip(tenths, tenths.dropFirst()).allSatisfy { $0.endedAtSeconds <= $1.endedAtSeconds })
        let lastEnded = try #require(tenths.last?.endedAtSeconds)
        #expect(lastEnded <= purser.faultPhaseSeconds + 0.5, "the last tenth ends with the fault phase")
        #expect(report.text.contains("Rate by tenth of the purchases (purchases/s): "), "\(report.text)")
        #expect(report.text.contains("last/first"))
        let peak = try #require(purser.harnessPeakResident)
        #expect(report.text.contains("Peak memory: harness \(ProcessMemory.text(peak))"), "\(report.text)")
    }

    @Test func anAppThatFinishesBeforeTheServerAnsweredFailsTheRun() async throws {
        let sabotage = ChaosSabotage(adapter: { FinishFirstAdapter(inner: $0) })
        let report = try await ChaosRun(
            configuration: Self.configuration(
                seed: 11, purchases: 80, baselines: [],
                sabotage: sabotage),
            progress: ChaosProgress(sink: nil)
        ).run()
        let purser = try #require(report.purser)
        #expect(!report.passed)
        #expect(purser.count(.finishedBeforeDecision) > 0, "\(report.text)")
        #expect(report.text.contains("FAIL") && report.text.contains("--seed 11"))
        #expect(purser.violations.contains { $0.kind == .finishedBeforeDecision && $0.transactionID.hasPrefix("2") })
        // The failed run kept its evidence, named on the report's failure line: the ledger, the simulator's record,
        // and each violating purchase's history with every ledger row that names it.
        let kept = URL(fileURLWithPath: try #require(report.evidence))
        defer { try? FileManager.default.removeItem(at: kept) }
        #expect(report.text.contains("Evidence kept in \(kept.path)"))
        let evidence = kept.appendingPathComponent("purser/evidence")
        let files = try FileManager.default.contentsOfDirectory(atPath: evidence.path)
        #expect(files.contains("ledger.sqlite") && files.contains("simulator.json") && files.contains("violations.txt"))
        let early = try #require(purser.violations.first { $0.kind == .finishedBeforeDecision })
        let history = try String(
            contentsOf: evidence.appendingPathComponent("history-\(early.transactionID).txt"), encoding: .utf8)
        #expect(
            history.contains("## Apple's record")
                && history.contains("\"transactionId\" : \"\(early.transactionID)\""))
        #expect(history.contains("apple_transactions: "), "the ledger's rows: \(history)")
        #expect(!files.contains("problems.txt"), "every part of the evidence was written")
    }

    @Test func aLedgerWithoutTheUniqueConstraintFailsTheRun() async throws {
        let sabotage = ChaosSabotage(store: { ForgetfulLedgerStore(inner: $0) })
        let report = try await Self.failingRun(
            Self.configuration(seed: 12, purchases: 80, baselines: [], sabotage: sabotage))
        let purser = try #require(report.purser)
        #expect(!report.passed)
        #expect(purser.count(.doubled) > 0, "\(report.text)")
    }

    @Test func aWebhookWorkerThatTakesAFailureForADeliveryFailsTheRun() async throws {
        var configuration = Self.configuration(
            seed: 13, purchases: 80, baselines: [],
            sabotage: ChaosSabotage(store: { LossyWebhookLedgerStore(inner: $0) }))
        configuration.rates[.webhookReceiver] = 0.5
        let report = try await Self.failingRun(configuration)
        let purser = try #require(report.purser)
        #expect(!report.passed)
        #expect(purser.count(.gameBackendDiffers) > 0, "\(report.text)")
    }

    /// The spending game backend resends with the same id (`spend-retry` on every wallet request); a ledger that
    /// applies a resent spend again breaks the wallet invariants: applied twice, and less gold than explained.
    @Test func aLedgerThatForgetsWalletIdsFailsTheRun() async throws {
        var configuration = Self.configuration(
            seed: 14, purchases: 80, baselines: [],
            sabotage: ChaosSabotage(store: { ForgetfulWalletLedgerStore(inner: $0) }))
        configuration.rates[.spendRetry] = 1
        let report = try await Self.failingRun(configuration)
        let purser = try #require(report.purser)
        #expect(!report.passed)
        #expect(purser.count(.appliedTwice) > 0, "\(report.text)")
        #expect(purser.count(.walletBalanceDiffers) > 0, "\(report.text)")
        #expect(report.wallet.map { $0.replays > 0 && $0.spends > 0 } == true)
    }

    @Test func theSameSeedPlansTheSameRun() {
        let first = ChaosPlan(configuration: Self.configuration(seed: 99))
        let again = ChaosPlan(configuration: Self.configuration(seed: 99))
        let other = ChaosPlan(configuration: Self.configuration(seed: 100))
        #expect(first.devices.map(\.purchases) == again.devices.map(\.purchases))
        #expect(first.devices.map(\.purchases) != other.devices.map(\.purchases))
        #expect(first.injected == again.injected)
        #expect(first.prefix(50).devices.flatMap(\.purchases).count == 50)
    }

    @Test func refusesCountsAndRatesThatCannotMakeARun() {
        var configuration = Self.configuration(seed: 1)
        configuration.rates[.clientCrash] = 1.5
        #expect(throws: ChaosError.self) { try configuration.validate() }
        configuration = Self.configuration(seed: 1)
        configuration.devices = 0
        #expect(throws: ChaosError.self) { try configuration.validate() }
    }
}
