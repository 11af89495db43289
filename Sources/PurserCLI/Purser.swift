import ArgumentParser

/// `purser`: the Purser server, its App Store simulator and tools for support staff and benchmarks.
@main
struct Purser: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "purser",
        abstract: "Every in-app purchase credited exactly once, to the right account.",
        subcommands: [
            Serve.self, AppStoreSim.self, Verify.self, Receipt.self, Reconcile.self, Lookup.self, Grant.self,
            Chaos.self, Bench.self,
        ]
    )
}
