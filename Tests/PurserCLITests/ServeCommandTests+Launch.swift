import Foundation
import Testing

extension ServeCommandTests {
    /// Starts `arguments` with `environment` added, and waits for its "listening on" line; returns its port.
    func launch(_ arguments: [String], environment: [String: String]) async throws -> (Process, Int) {
        let (process, port, _) = try await launchWithOutput(arguments, environment: environment)
        return (process, port)
    }

    /// `launch`, also returning what the process prints (standard output and error together).
    func launchWithOutput(_ arguments: [String], environment: [String: String]) async throws -> (
        Process, Int, Output
    ) {
        let process = Process()
        process.executableURL = VerifyCommandTests.binary
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        let output = ServeCommandTests.Output()
        output.pipe = pipe
        pipe.fileHandleForReading.readabilityHandler = { output.append($0.availableData) }
        try process.run()
        for _ in 0..<600 {
            if let match = output.value.firstMatch(of: /listening on 127\.0\.0\.1:(\d+)/), let port = Int(match.1) {
                return (process, port, output)
            }
            guard process.isRunning else { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        process.terminate()
        throw CancellationError()
    }

    /// Writes the one-product catalog (`gold60`, 60 gold) to `catalog.json` in `directory` and starts `appstore-sim`
    /// with its data in `directory/sim`; returns the simulator's process and base URL.
    func startSimulator(in directory: URL) async throws -> (Process, String) {
        try #"{"products": {"gold60": {"type": "consumable", "grants": {"gold": 60}}}}"#
            .write(to: directory.appendingPathComponent("catalog.json"), atomically: true, encoding: .utf8)
        let (simulator, port) = try await launch(
            ["appstore-sim", "--port", "0", "--data-dir", directory.appendingPathComponent("sim").path],
            environment: [:])
        return (simulator, "http://127.0.0.1:\(port)")
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
