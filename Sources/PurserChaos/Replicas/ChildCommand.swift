import Foundation

/// Runs one `purser` command to completion (for example `purser reconcile --json`) and hands back what it printed.
/// Its output is read by swift-subprocess's own event loop, so no thread of the harness's concurrency pool blocks on a
/// pipe while the command talks to the simulator this same process serves.
enum ChildCommand {
    /// The harness's environment without Purser's settings (`PURSER_…`): a child takes its settings from the run's
    /// files and arguments only, so a `PURSER_DATABASE_URL` exported in the shell cannot send it to another database
    /// than the one the harness checks.
    static var environment: [String: String] {
        ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("PURSER_") }
    }

    static func run(_ executable: URL, _ arguments: [String]) async throws -> ChildProcess.Completed {
        try await ChildProcess.run(executable, arguments, environment: environment)
    }
}
