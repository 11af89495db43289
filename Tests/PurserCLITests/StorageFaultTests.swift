import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The real `purser serve` on a SQLite ledger whose disk fails under it: full, then read-only. Every affected request
/// is a 503 `storage_unavailable` (never a decision the ledger did not record, never a crash), the outage is logged
/// once per episode, the server serves again when the fault is gone, and nothing acknowledged is lost.
@Suite(
    .serialized,
    .enabled(if: SmallFilesystem.available, "needs root to mount a small tmpfs and a loop device (as CI runs)"))
struct StorageFaultTests {
    let serve = ServeCommandTests()

    /// A running `appstore-sim` (its data off the failing disk) and a `serve` whose data directory is on `disk`.
    struct Servers {
        let simulator: Process
        let simulatorURL: String
        let catalog: URL
        let dataDirectory: URL
    }

    func startSimulator(in directory: URL, dataOn disk: SmallFilesystem) async throws -> Servers {
        try #"{"products": {"gold60": {"type": "consumable", "grants": {"gold": 60}}}}"#
            .write(to: directory.appendingPathComponent("catalog.json"), atomically: true, encoding: .utf8)
        let (simulator, port) = try await serve.launch(
            ["appstore-sim", "--port", "0", "--data-dir", directory.appendingPathComponent("sim").path],
            environment: [:])
        return Servers(
            simulator: simulator, simulatorURL: "http://127.0.0.1:\(port)",
            catalog: directory.appendingPathComponent("catalog.json"),
            dataDirectory: disk.mountPoint.appendingPathComponent("data"))
    }

    func startServe(_ servers: Servers) async throws -> (Process, String, ServeCommandTests.Output) {
        let (process, port, output) = try await serve.launchWithOutput(
            [
                "serve", "--port", "0", "--appstore", "simulator", "--auth", "development",
                "--data-dir", servers.dataDirectory.path, "--catalog", servers.catalog.path,
                "--bundle-id", "com.example.purser.demo",
            ], environment: ["PURSER_SIMULATOR_URL": servers.simulatorURL])
        return (process, "http://127.0.0.1:\(port)", output)
    }

    /// An order for alice and its purchase at the simulator: the signed transaction to submit.
    func buy(at base: String, _ servers: Servers) async throws -> String {
        let (_, order) = try await serve.request(
            "POST", "\(base)/v1/orders", user: "alice", json: #"{"productId": "gold60"}"#)
        let token = try #require(order["appAccountToken"] as? String)
        let (_, purchase) = try await serve.request(
            "POST", "\(servers.simulatorURL)/simulator/v1/purchases",
            json: #"{"productId": "gold60", "appAccountToken": "\#(token)"}"#)
        return try #require(purchase["signedTransaction"] as? String)
    }

    func submit(_ jws: String, at base: String) async throws -> (Int, String?) {
        let (status, body) = try await serve.request(
            "POST", "\(base)/v1/transactions", user: "alice", json: #"{"signedTransaction": "\#(jws)"}"#)
        return (status, (body["decision"] as? String) ?? ((body["error"] as? [String: Any])?["code"] as? String))
    }

    func gold(at base: String) async throws -> Int? {
        let (_, wallet) = try await serve.request("GET", "\(base)/v1/wallet", user: "alice")
        return (wallet["balances"] as? [String: Int])?["gold"]
    }

    func occurrences(of line: String, in output: ServeCommandTests.Output) -> Int {
        output.value.components(separatedBy: line).count - 1
    }

    @Test func aFullDiskAnswers503AndServesAgainOnceSpaceIsFreed() async throws {
        let directory = try serve.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let disk = try SmallFilesystem(.tmpfs, megabytes: 8)
        defer { disk.remove() }
        let servers = try await startSimulator(in: directory, dataOn: disk)
        defer { servers.simulator.terminate() }
        var (server, base, output) = try await startServe(servers)
        defer { server.terminate() }

        let first = try await buy(at: base, servers)
        #expect(try await submit(first, at: base) == (200, "delivered"))
        let second = try await buy(at: base, servers)
        let filler = try disk.fill()
        for _ in 0..<3 {
            #expect(try await submit(second, at: base) == (503, "storage_unavailable"), "a full disk decides nothing")
        }
        let (health, _) = try await serve.request("GET", "\(base)/health")
        #expect(health == 200 && server.isRunning, "the server stays up while its disk is full")
        #expect(occurrences(of: "the ledger is unavailable", in: output) == 1, "logged once per episode")

        try FileManager.default.removeItem(at: filler)
        #expect(try await submit(second, at: base) == (200, "delivered"), "served again once space is freed")
        #expect(occurrences(of: "the ledger is back", in: output) == 1)
        #expect(try await gold(at: base) == 120)

        // Nothing acknowledged is lost: killed and restarted on the same disk, both credits are there, once each.
        kill(server.processIdentifier, SIGKILL)
        server.waitUntilExit()
        (server, base, output) = try await startServe(servers)
        #expect(try await gold(at: base) == 120)
        #expect(try await submit(first, at: base) == (200, "alreadyDelivered"))
        #expect(try await submit(second, at: base) == (200, "alreadyDelivered"))
    }

    @Test(.enabled(if: SmallFilesystem.ext4Available, "needs a loop device and mkfs.ext4"))
    func aDiskTurnedReadOnlyAnswers503AndLosesNothing() async throws {
        let directory = try serve.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let disk = try SmallFilesystem(.ext4, megabytes: 16)
        defer { disk.remove() }
        let servers = try await startSimulator(in: directory, dataOn: disk)
        defer { servers.simulator.terminate() }
        var (server, base, output) = try await startServe(servers)
        defer { server.terminate() }

        let first = try await buy(at: base, servers)
        #expect(try await submit(first, at: base) == (200, "delivered"))
        let second = try await buy(at: base, servers)
        try disk.failIntoReadOnly()
        for _ in 0..<3 {
            #expect(
                try await submit(second, at: base) == (503, "storage_unavailable"), "a read-only disk decides nothing")
        }
        let (health, _) = try await serve.request("GET", "\(base)/health")
        #expect(health == 200 && server.isRunning, "the server stays up on a read-only disk")
        #expect(occurrences(of: "the ledger is unavailable", in: output) == 1, "logged once per episode")

        // The operator stops the server, repairs the disk and starts it again: nothing acknowledged was lost.
        kill(server.processIdentifier, SIGKILL)
        server.waitUntilExit()
        try disk.unmountAndRepair()
        try disk.mount()
        (server, base, output) = try await startServe(servers)
        #expect(try await submit(first, at: base) == (200, "alreadyDelivered"))
        #expect(try await submit(second, at: base) == (200, "delivered"))
        #expect(try await gold(at: base) == 120)
    }
}
