import ArgumentParser
import PurserServer

/// Options of the commands that also need the catalog (`reconcile`, `lookup`, `grant`): `LedgerCommandOptions` and
/// `--catalog`.
struct SupportCommandOptions: ParsableArguments {
    @OptionGroup var ledger: LedgerCommandOptions
    @Option(help: "The product catalog file (default from the configuration).") var catalog: String?

    /// `LedgerCommandOptions.withServer`, with `--catalog`.
    func withServer<T: Sendable>(
        label: String, _ body: @Sendable @escaping (PurserAssembly) async throws -> T
    ) async throws -> T {
        try await ledger.withServer(label: label, catalog: catalog, body)
    }
}
