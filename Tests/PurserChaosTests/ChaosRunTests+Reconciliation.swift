import PurserChaos
import Testing

extension ChaosRunTests {
    /// The server reconciles on its own while the faults run, as `serve` does on its interval (here every half
    /// second): the heal's reconciliation then reads each account's history from where those runs stopped, and
    /// still finds everything the faults hid.
    @Test func periodicReconciliationDuringTheFaultsLeavesTheHealLessToReadAndLosesNothing() async throws {
        var configuration = Self.configuration(seed: 23, baselines: [])
        configuration.reconcileEvery = 0.5
        let report = try await ChaosRun(configuration: configuration, progress: ChaosProgress(sink: nil)).run()
        let purser = try #require(report.purser)
        #expect(report.passed, "\(report.text)")
        #expect(purser.violationCount == 0)
        for row in report.families where row.injected > 0 {
            #expect(row.healed == row.injected && row.violations == 0, "\(row.family.rawValue)")
        }
        // Without the server's own runs the heal reads every transaction (the run before the faults saw none).
        let scanned = report.reconciliation.firstMatch(of: /^scanned (\d+)/).flatMap { Int($0.1) }
        #expect(try #require(scanned) < purser.charged, "\(report.reconciliation)")
    }
}
