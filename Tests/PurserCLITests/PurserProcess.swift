import Foundation
import PurserChaos

/// The built `purser` binary, run as support staff would: arguments, optional standard input, exit status and output.
enum PurserProcess {
    static var binary: URL {
        let candidates = [
            Bundle.main.bundleURL, Bundle.main.bundleURL.deletingLastPathComponent(),
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
        ]
        for directory in candidates {
            let url = directory.appendingPathComponent("purser")
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        return candidates[0].appendingPathComponent("purser")
    }

    struct Run {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    static func run(_ arguments: [String], stdin: Data? = nil, environment: [String: String] = [:]) async throws
        -> Run
    {
        try await run(binary, arguments, stdin: stdin, environment: environment)
    }

    /// Another program the tests need (for example `openssl`), run the same way.
    static func runTool(_ path: String, _ arguments: [String]) async throws -> Run {
        try await run(URL(fileURLWithPath: path), arguments, stdin: nil, environment: [:])
    }

    /// Runs through swift-subprocess, as `purser chaos` does: Foundation's `Process.run()` can crash this test process
    /// (swift-corelibs-foundation#5472).
    private static func run(_ executable: URL, _ arguments: [String], stdin: Data?, environment: [String: String])
        async throws -> Run
    {
        let completed = try await ChildProcess.run(
            executable, arguments, environment: ProcessInfo.processInfo.environment.merging(environment) { $1 },
            input: Array(stdin ?? Data()))
        return Run(status: completed.status, stdout: completed.standardOutput, stderr: completed.standardError)
    }

    static func run(_ arguments: [String], stdin: String) async throws -> Run {
        try await run(arguments, stdin: Data(stdin.utf8))
    }
}
