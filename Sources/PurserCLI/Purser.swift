import ArgumentParser
import Foundation

/// `purser`: the Purser server, its App Store simulator and tools for support staff and benchmarks.
@main
struct Purser: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "purser",
        abstract: "Every in-app purchase credited exactly once, to the right account.",
        subcommands: [
            Serve.self, AppStoreSim.self, Verify.self, Receipt.self, Reconcile.self, Lookup.self, Grant.self,
            Chaos.self, Bench.self, Webhooks.self, ConsoleCommand.self,
        ]
    )
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
