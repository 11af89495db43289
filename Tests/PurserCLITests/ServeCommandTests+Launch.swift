import Foundation
import PurserChaos
import Testing

extension ServeCommandTests {
    /// Starts `arguments` with `environment` added, and waits for its "listening on" line; returns its port.
    func launch(_ arguments: [String], environment: [String: String]) async throws -> (ChildProcess, Int) {
        let process = try await start(arguments, environment: environment)
        for _ in 0..<600 {
            if let match = process.output.firstMatch(of: /listening on 127\.0\.0\.1:(\d+)/), let port = Int(match.1) {
                return (process, port)
            }
            guard process.isRunning else { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        process.terminate()
        throw CancellationError()
    }

    /// Starts the `purser` binary with `arguments` and this process's environment with `environment` added; what it
    /// prints is the child's `output`. No load balancer watches a test's `serve`, so a stop does not drain
    /// (`PURSER_HTTP_DRAIN_SECONDS` 0) unless `environment` sets it.
    func start(_ arguments: [String], environment: [String: String] = [:]) async throws -> ChildProcess {
        try await ChildProcess.start(
            VerifyCommandTests.binary, arguments,
            environment: ["PURSER_HTTP_DRAIN_SECONDS": "0"].merging(ProcessInfo.processInfo.environment) { $1 }
                .merging(environment) { $1 })
    }

    /// Writes the one-product catalog (`gold60`, 60 gold) to `catalog.json` in `directory` and starts `appstore-sim`
    /// with its data in `directory/sim`; returns the simulator's process and base URL.
    func startSimulator(in directory: URL) async throws -> (ChildProcess, String) {
        try #"{"products": {"gold60": {"type": "consumable", "grants": {"gold": 60}}}}"#
            .write(to: directory.appendingPathComponent("catalog.json"), atomically: true, encoding: .utf8)
        let (simulator, port) = try await launch(
            ["appstore-sim", "--port", "0", "--data-dir", directory.appendingPathComponent("sim").path],
            environment: [:])
        return (simulator, "http://127.0.0.1:\(port)")
    }

    /// An `appstore-sim` and the arguments of a `serve` on SQLite in `directory/data` that trusts it (development
    /// authentication, the one-product catalog), as the tests that stop, kill or copy the server use them.
    struct SimulatedServe {
        let simulator: ChildProcess
        let simulatorURL: String
        let data: URL
        let arguments: [String]
        var environment: [String: String] { ["PURSER_SIMULATOR_URL": simulatorURL] }
    }

    /// Starts the simulator for a `SimulatedServe` in `directory` (the caller terminates `simulator`).
    func simulatedServe(in directory: URL) async throws -> SimulatedServe {
        let (simulator, simulatorURL) = try await startSimulator(in: directory)
        let data = directory.appendingPathComponent("data")
        return SimulatedServe(
            simulator: simulator, simulatorURL: simulatorURL, data: data,
            arguments: [
                "serve", "--port", "0", "--appstore", "simulator", "--auth", "development", "--data-dir", data.path,
                "--catalog", directory.appendingPathComponent("catalog.json").path, "--bundle-id",
                "com.example.purser.demo",
            ])
    }

    /// Starts `setup`'s `serve`; its process and port.
    func launch(_ setup: SimulatedServe) async throws -> (ChildProcess, Int) {
        try await launch(setup.arguments, environment: setup.environment)
    }

    /// `user` orders gold60 at Purser's `base` and pays for it at `simulator` with the order as the token: the signed
    /// transaction and Apple's id for it.
    func buyGold60(as user: String, at base: String, simulator: String) async throws -> (jws: String, id: String) {
        let (_, order) = try await request("POST", "\(base)/v1/orders", user: user, json: #"{"productId": "gold60"}"#)
        let token = try #require(order["appAccountToken"] as? String)
        let (_, purchase) = try await request(
            "POST", "\(simulator)/simulator/v1/purchases",
            json: #"{"productId": "gold60", "appAccountToken": "\#(token)"}"#)
        return (
            try #require(purchase["signedTransaction"] as? String), try #require(purchase["transactionId"] as? String)
        )
    }
}
