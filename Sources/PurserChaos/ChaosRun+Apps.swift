import Foundation
import Purser
import PurserCore
import PurserStorage

/// `--apps N`: one studio server, and each app running the whole plan at once on devices of its own, with its own
/// ledger, game backend and spending backend. Each app's invariants are checked as a single app's are; then the
/// cross-app invariant: no credit, revoke or event of one app ever lands in another app's ledger or game backend.
extension ChaosRun {
    func runApps(
        _ plan: ChaosPlan, on servers: [ChaosServer], directory: URL, transport: any PurserHTTPTransport
    ) async throws -> (
        (result: ChaosReport.StrategyResult, lanes: [[Violation]]), PurserDriver.Healing
    ) {
        progress.begin(ChaosStrategy.purser.title, total: plan.purchaseCount * servers.count)
        let lanes = try await withThrowingTaskGroup(of: (Int, Lane).self) { group in
            for (index, server) in servers.enumerated() {
                let lanePlan = index == 0 ? plan : plan.forApp(server.app)
                group.addTask {
                    let lane = try await runLane(
                        lanePlan, on: server, directory: directory.appendingPathComponent(server.app),
                        transport: transport, failovers: nil)
                    return (index, lane)
                }
            }
            var lanes: [(Int, Lane)] = []
            for try await lane in group { lanes.append(lane) }
            return lanes.sorted { $0.0 < $1.0 }.map(\.1)
        }
        progress.note("checking that no app's credit, revoke or event landed in another app")
        var result = ChaosReport.StrategyResult.merged(lanes.map(\.result))
        result.tenths = progress.tenths
        var perLane = lanes.map(\.violations)
        for index in lanes.indices {
            let crossing = try await crossAppViolations(in: lanes[index], among: lanes)
            if !crossing.isEmpty {
                try await keepEvidence(
                    of: crossing, server: lanes[index].server, record: lanes[index].record, plan: plan,
                    in: directory.appendingPathComponent(lanes[index].server.app), named: "evidence-cross-app")
            }
            perLane[index] += crossing
            result.counts[.crossApp, default: 0] += crossing.count
            result.violations = Array((result.violations + crossing).prefix(50))
        }
        var healing = lanes[0].healing
        healing.seconds = lanes.map(\.healing.seconds).max() ?? 0
        healing.reconciliation = lanes.map { "\($0.server.app): \($0.healing.reconciliation)" }
            .joined(separator: "; ")
        healing.serverAPIFaults = lanes.map(\.healing.serverAPIFaults).reduce(0, +)
        healing.webhooks = .summed(lanes.map(\.healing.webhooks))
        healing.wallet = lanes.compactMap(\.healing.wallet).reduce(into: SpendingBackend.Tally()) { $0.add($1) }
        return (await addingAppleRefusals(of: servers[0], to: (result, perLane)), healing)
    }

    /// What of the other apps' purchases `lane`'s app holds: a transaction in its ledger, or an event about one in
    /// its game backend.
    func crossAppViolations(in lane: Lane, among lanes: [Lane]) async throws -> [Violation] {
        var found: [Violation] = []
        let received = lane.server.gameBackend.transactionIDs(app: lane.server.app)
        for other in lanes where other.server.app != lane.server.app {
            for charge in other.record.charges {
                if let held = try await lane.server.store.transaction(charge.transactionID) {
                    found.append(
                        Violation(
                            kind: .crossApp, transactionID: charge.transactionID,
                            detail: "\(other.server.app)'s purchase is in \(lane.server.app)'s ledger (\(held.state))",
                            purchase: nil))
                }
                if received.contains(charge.transactionID) {
                    found.append(
                        Violation(
                            kind: .crossApp, transactionID: charge.transactionID,
                            detail: "\(other.server.app)'s purchase reached \(lane.server.app)'s game backend",
                            purchase: nil))
                }
            }
        }
        return found
    }
}
