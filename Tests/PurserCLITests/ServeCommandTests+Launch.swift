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
}
