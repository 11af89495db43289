import Foundation
import PurserChaos
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
        let simulator: ChildProcess
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

    func startServe(_ servers: Servers) async throws -> (ChildProcess, String) {
        let (process, port) = try await serve.launch(
            [
                "serve", "--port", "0", "--appstore", "simulator", "--auth", "development",
                "--data-dir", servers.dataDirectory.path, "--catalog", servers.catalog.path,
                "--bundle-id", "com.example.purser.demo",
            ], environment: ["PURSER_SIMULATOR_URL": servers.simulatorURL])
        return (process, "http://127.0.0.1:\(port)")
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

    /// How often `line` is in what `serve` printed, once its output has settled: the pipe is read on another thread,
    /// so a line logged just before an answer may arrive after it (waits up to 2 s for at least one).
    func occurrences(of line: String, in server: ChildProcess) async throws -> Int {
        for _ in 0..<40 where !server.output.contains(line) { try await Task.sleep(for: .milliseconds(50)) }
        try await Task.sleep(for: .milliseconds(100))
        return server.output.components(separatedBy: line).count - 1
    }

    /// Starts the simulator and `serve` on a new `kind` disk, credits one purchase, pays a second, breaks the disk
    /// with `fault`, and checks that the second is refused with 503 three times while the server stays up and logs
    /// the outage once. Then `recover` gets the scene: the servers, `serve`'s process, its base URL and output, and
    /// the two signed transactions (the first credited, the second not).
    func withFailingDisk(
        _ kind: SmallFilesystem.Kind, megabytes: Int, fault: (SmallFilesystem) throws -> Void,
        recover: (SmallFilesystem, Servers, ChildProcess, String, String, String) async throws -> ChildProcess
    ) async throws {
        let directory = try serve.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let disk = try SmallFilesystem(kind, megabytes: megabytes)
        defer { disk.remove() }
        let servers = try await startSimulator(in: directory, dataOn: disk)
        defer { servers.simulator.terminate() }
        let (server, base) = try await startServe(servers)
        var running = server
        defer { running.terminate() }

        let first = try await buy(at: base, servers)
        #expect(try await submit(first, at: base) == (200, "delivered"))
        let second = try await buy(at: base, servers)
        try fault(disk)
        for _ in 0..<3 {
            #expect(
                try await submit(second, at: base) == (503, "storage_unavailable"), "a failing disk decides nothing")
        }
        let (health, _) = try await serve.request("GET", "\(base)/health")
        #expect(health == 200 && server.isRunning, "the server stays up while its disk fails")
        #expect(try await occurrences(of: "the ledger is unavailable", in: server) == 1, "logged once per episode")
        running = try await recover(disk, servers, server, base, first, second)
    }

    @Test func aFullDiskAnswers503AndServesAgainOnceSpaceIsFreed() async throws {
        var filler: URL?
        try await withFailingDisk(
            .tmpfs, megabytes: 8, fault: { filler = try $0.fill() },
            recover: {
                _, servers, server, base, first, second in
                try FileManager.default.removeItem(at: try #require(filler))
                #expect(try await submit(second, at: base) == (200, "delivered"), "served again once space is freed")
                #expect(try await occurrences(of: "the ledger is back", in: server) == 1)
                #expect(try await gold(at: base) == 120)

                // Nothing acknowledged is lost: killed and restarted on the same disk, both credits are there, once each.
                server.send(SIGKILL)
                await server.waitUntilExit()
                let (restarted, again) = try await startServe(servers)
                #expect(try await gold(at: again) == 120)
                #expect(try await submit(first, at: again) == (200, "alreadyDelivered"))
                #expect(try await submit(second, at: again) == (200, "alreadyDelivered"))
                return restarted
            })
    }

    @Test(.enabled(if: SmallFilesystem.ext4Available, "needs a loop device and mkfs.ext4"))
    func aDiskTurnedReadOnlyAnswers503AndLosesNothing() async throws {
        try await withFailingDisk(
            .ext4, megabytes: 16, fault: { try $0.failIntoReadOnly() },
            recover: {
                disk, servers, server, _, first, second in
                // The operator stops the server, repairs the disk and starts it again: nothing acknowledged was lost.
                server.send(SIGKILL)
                await server.waitUntilExit()
                try disk.unmountAndRepair()
                try disk.mount()
                let (restarted, base) = try await startServe(servers)
                #expect(try await submit(first, at: base) == (200, "alreadyDelivered"))
                #expect(try await submit(second, at: base) == (200, "delivered"))
                #expect(try await gold(at: base) == 120)
                return restarted
            })
    }
}
