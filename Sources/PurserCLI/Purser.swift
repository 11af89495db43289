import ArgumentParser
import Foundation
import Logging
import PurserServer
import PurserStorage

/// `purser`: the Purser server, its App Store simulator and tools for support staff and benchmarks.
@main
struct Purser: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "purser",
        abstract: "Every in-app purchase credited exactly once, to the right account.",
        version: PurserVersion.current,
        subcommands: [
            Serve.self, AppStoreSim.self, Verify.self, Receipt.self, Reconcile.self, Lookup.self, Grant.self,
            Chaos.self, Bench.self, Webhooks.self, ConsoleCommand.self, ConfigCommand.self, LedgerCommand.self,
            Backup.self, Restore.self, UsersCommand.self, KeysCommand.self,
        ]
    )

    /// Parses and runs the command. A configuration the server cannot use prints `purser: ` and the message that
    /// names the key or file, and exits 1: argument-parser would follow it with its generic usage line, as if the
    /// command line were wrong. A `ServiceError` (a support command's "not found", "already credited", …) or a
    /// `StorageError` (a restore refused: `ledger_in_use`) prints its code and message, `code: message`, and exits 1.
    /// After `serve --log-format json` bootstrapped its log, each of these lines is a JSON log entry instead (`report`).
    static func main() async {
        do {
            var command = try parseAsRoot()
            if var asynchronous = command as? any AsyncParsableCommand {
                try await asynchronous.run()
            } else {
                try command.run()
            }
        } catch let error as ConfigurationError {
            for problem in error.problems { report("purser: \(problem)") }
            Foundation.exit(1)
        } catch let error as ServiceError {
            report("\(error.code): \(error.message)")
            Foundation.exit(1)
        } catch let error as StorageError {
            report("\(error.code): \(error.message)")
            Foundation.exit(1)
        } catch {
            if LogFormat.current == .json {
                let message = message(for: error)
                if !message.isEmpty { report(message) }
                Foundation.exit(exitCode(for: error).rawValue)
            }
            exit(withError: error)
        }
    }

    /// Writes `line` on standard error as it is, or as an error-level JSON log entry once the command bootstrapped JSON
    /// logging (`serve` with `log.format` `json`), so that a log collector reads its last words as it read the rest.
    static func report(_ line: String) {
        guard LogFormat.current == .json else {
            FileHandle.standardError.write(Data("\(line)\n".utf8))
            return
        }
        Logger(label: "purser").error("\(line)")
    }
}

extension Purser {
    /// This very `purser` binary, for the commands that start more of it (`chaos --replicas`).
    static var executable: URL {
        #if os(Linux)
            if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
                return URL(fileURLWithPath: path)
            }
        #endif
        return Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
    }
}
