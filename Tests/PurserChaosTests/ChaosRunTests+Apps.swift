import Foundation
import PurserChaos
import PurserStorage
import Testing

/// `purser chaos --apps 2`: two apps of one studio, each running the plan on its own devices (the same users),
/// each checked as one app is; then no purchase of one app may be in the other's ledger or game backend.
extension ChaosRunTests {
    @Test func twoAppsOfOneStudioKeepEveryPurchaseInItsOwnApp() async throws {
        var configuration = Self.configuration(seed: 21, purchases: 120, baselines: [])
        configuration.apps = 2
        let report = try await ChaosRun(configuration: configuration, progress: ChaosProgress(sink: nil)).run()
        let purser = try #require(report.purser)
        #expect(report.passed, "\(report.text)")
        #expect(report.apps == 2 && purser.purchases == 240)
        Self.expectEveryPurchaseChargedOrRefusedBeforeAnyCharge(purser)
        #expect(
            report.text.contains(
                "Apps: 2, each with its own ledger, all delivering to one game backend that applies each webhook-id "
                    + "once; 0 of one app's purchases"))
        #expect(report.text.contains("0 webhook-ids that came with two bodies"))
        #expect(report.reconciliation.contains(ChaosServer.appBundle(1) + ": scanned"))
    }

    /// The harness must notice a studio whose games share one ledger: the further app writes the first app's.
    @Test func aStudioWhoseAppsShareOneLedgerFailsTheRun() async throws {
        var configuration = Self.configuration(
            seed: 22, purchases: 60, baselines: [],
            sabotage: ChaosSabotage(furtherAppsLedger: { UnstampedLedgerStore(inner: $0) }))
        configuration.apps = 2
        let report = try await Self.failingRun(configuration)
        let purser = try #require(report.purser)
        #expect(!report.passed)
        #expect(purser.count(.crossApp) > 0, "\(report.text)")
        #expect(
            purser.violations.contains { $0.kind == .crossApp && $0.detail.contains("in com.example.chaos's ledger") })
    }

    /// Two apps whose ledgers give their events the same ids (as ids numbered per ledger did) reach the one receiver
    /// as one id with two bodies: the run fails on `webhook-id-reused`, and the receiver's books differ.
    @Test func appsWhoseWebhookIdsRepeatEachOtherFailTheRun() async throws {
        var configuration = Self.configuration(
            seed: 23, purchases: 40, baselines: [], sabotage: ChaosSabotage(sharedEventIDs: true))
        configuration.apps = 2
        let report = try await Self.failingRun(configuration)
        let purser = try #require(report.purser)
        #expect(!report.passed)
        #expect(purser.count(.webhookIDReused) > 0, "\(report.text)")
        #expect(purser.count(.gameBackendDiffers) > 0, "\(report.text)")
    }

    @Test func appsNeedTheServerInThisProcess() {
        var configuration = Self.configuration(seed: 1)
        configuration.apps = 2
        configuration.replicas = 1
        configuration.executable = URL(fileURLWithPath: "/bin/true")
        #expect(throws: ChaosError.self) { try configuration.validate() }
        configuration.replicas = 0
        configuration.apps = 5
        #expect(throws: ChaosError.self) { try configuration.validate() }
    }
}

/// The first app's ledger, shared by a further app (sabotage): it hides the record of which app a ledger belongs
/// to, which would otherwise stop the server at start.
final class UnstampedLedgerStore: ForwardingLedgerStore {
    let inner: any LedgerStore

    init(inner: any LedgerStore) { self.inner = inner }

    func cursor(_ name: String) async throws -> String? {
        name == "ledger.app" ? nil : try await inner.cursor(name)
    }

    func setCursor(_ name: String, to value: String, now: Date) async throws {
        guard name != "ledger.app" else { return }
        try await inner.setCursor(name, to: value, now: now)
    }
}
