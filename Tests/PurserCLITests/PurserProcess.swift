import Foundation

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

    static func run(_ arguments: [String], stdin: Data? = nil, environment: [String: String] = [:]) throws -> Run {
        try run(binary, arguments, stdin: stdin, environment: environment)
    }

    /// Another program the tests need (for example `openssl`), run the same way.
    static func runTool(_ path: String, _ arguments: [String]) throws -> Run {
        try run(URL(fileURLWithPath: path), arguments, stdin: nil, environment: [:])
    }

    private static func run(_ executable: URL, _ arguments: [String], stdin: Data?, environment: [String: String])
        throws -> Run
    {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        let out = Pipe()
        let err = Pipe()
        let input = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input
        try process.run()
        if let stdin { input.fileHandleForWriting.write(stdin) }
        try input.fileHandleForWriting.close()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(
            status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
            stderr: String(decoding: stderr, as: UTF8.self))
    }

    static func run(_ arguments: [String], stdin: String) throws -> Run {
        try run(arguments, stdin: Data(stdin.utf8))
    }
}
