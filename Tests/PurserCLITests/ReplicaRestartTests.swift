import AsyncHTTPClient
import Foundation
import Testing

@testable import PurserChaos

/// The chaos harness's supervisor of `purser serve` replicas: a replica killed while its ledger cannot be reached
/// (as in a database failover's gap) exits at every start until the ledger is back, and is started again until then.
/// A Patroni run (seed 4239778637) stopped with "the ledger cannot be reached at start" when three quick starts all
/// met the gap; this test keeps the ledger away until five starts have been tried.
@Suite struct ReplicaRestartTests {
    @Test func aReplicaKilledWhileItsLedgerIsAwayIsStartedAgainUntilTheLedgerIsBack() async throws {
        let directory = try ServeCommandTests().temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let data = directory.appendingPathComponent("data")
        let configuration = directory.appendingPathComponent("replica.json")
        try #"""
        {"host": "127.0.0.1", "port": 0, "dataDirectory": "data", "appStore": "simulator",
         "auth": {"mode": "development"}, "catalogFile": "catalog.json"}
        """#.write(to: configuration, atomically: true, encoding: .utf8)
        try #"{"products": {"gold60": {"type": "consumable", "grants": {"gold": 60}}}}"#
            .write(to: directory.appendingPathComponent("catalog.json"), atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(
            at: directory.appendingPathComponent("logs"), withIntermediateDirectories: true)
        let client = HTTPClient(eventLoopGroupProvider: .singleton)
        let process = ServerProcess(
            name: "replica-1", executable: PurserProcess.binary, configuration: configuration,
            logDirectory: directory.appendingPathComponent("logs"))
        let replicas = ReplicaSet(
            processes: [process], front: ReplicaFront(replicas: 1, faults: NetworkFaults(), client: client),
            client: client)
        do {
            try await replicas.startAll()
            // The ledger goes away: its directory becomes a file, so a start cannot open it and exits.
            let away = directory.appendingPathComponent("data-away")
            try FileManager.default.moveItem(at: data, to: away)
            try Data().write(to: data)
            // Back only after the fifth start since the kill began: a count, not a time, so a loaded machine (where a
            // start takes seconds to fail) still makes the supervisor retry more than the three quick starts it had.
            let logs = directory.appendingPathComponent("logs")
            let gap = Task {
                let deadline = ContinuousClock.now + .seconds(80)
                while !FileManager.default.fileExists(atPath: logs.appendingPathComponent("replica-1-6.log").path),
                    ContinuousClock.now < deadline
                {
                    try await Task.sleep(for: .milliseconds(100))
                }
                try FileManager.default.removeItem(at: data)
                try FileManager.default.moveItem(at: away, to: data)
            }
            try await replicas.kill(0)
            try await gap.value
            let kill = try #require(replicas.kills.first)
            #expect(kill.failedStarts >= 4, "\(kill)")
            #expect(await ServerProcess.isHealthy(try #require(process.url), client: client), "back, and answering")
        } catch {
            await replicas.stopAll()
            try await client.shutdown()
            throw error
        }
        await replicas.stopAll()
        try await client.shutdown()
    }
}
