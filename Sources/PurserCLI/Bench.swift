import ArgumentParser

extension Purser {
    /// `purser bench`: performance figures, measured in one run so that ratios are comparable on a noisy machine.
    struct Bench: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Measure Purser's speed.",
            subcommands: [BenchVerify.self, BenchSubmit.self, BenchReceipt.self, BenchWebhooks.self, BenchSpend.self])
    }
}
