import Foundation

/// Runs one `purser` command to completion (for example `purser reconcile --json`) and hands back what it printed.
/// Its output goes to files, read once it has exited, so no thread of the harness's concurrency pool blocks on a
/// pipe while the command talks to the simulator this same process serves.
enum ChildCommand {
    struct Output: Sendable {
        var status: Int32
        var standardOutput: String
        var standardError: String
    }

    /// The harness's environment without Purser's settings (`PURSER_…`): a child takes its settings from the run's
    /// files and arguments only, so a `PURSER_DATABASE_URL` exported in the shell cannot send it to another database
    /// than the one the harness checks.
    static var environment: [String: String] {
        ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("PURSER_") }
    }

    static func run(_ executable: URL, _ arguments: [String]) async throws -> Output {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("purser-child-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let outFile = directory.appendingPathComponent("stdout")
        let errFile = directory.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: outFile.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errFile.path, contents: nil)
        let out = try FileHandle(forWritingTo: outFile)
        let err = try FileHandle(forWritingTo: errFile)
        defer {
            try? out.close()
            try? err.close()
        }
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = environment
        process.standardOutput = out
        process.standardError = err
        let finished = AsyncStream.makeStream(of: Int32.self)
        process.terminationHandler = { process in
            finished.continuation.yield(process.terminationStatus)
            finished.continuation.finish()
        }
        try process.run()
        var status: Int32 = -1
        for await code in finished.stream { status = code }
        return Output(
            status: status, standardOutput: (try? String(contentsOf: outFile, encoding: .utf8)) ?? "",
            standardError: (try? String(contentsOf: errFile, encoding: .utf8)) ?? "")
    }
}
