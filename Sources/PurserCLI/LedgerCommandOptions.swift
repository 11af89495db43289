import ArgumentParser
import PurserServer

/// Options of the commands that work on a server's ledger (`webhooks list|replay|test`): the configuration file, the
/// data directory and the running server's port. They need no catalog, so they offer no `--catalog`.
struct LedgerCommandOptions: ParsableArguments {
    @Option(help: "The server's JSON configuration file.") var config: String?
    @Option(name: .customLong("data-dir"), help: "The server's data directory (default from the configuration).")
    var dataDirectory: String?
    @Option(
        help: """
            The running server's port (default from the configuration); needed only with appStore simulator, \
            whose simulator the server hosts there.
            """)
    var port: Int?

    /// Runs `body` on the server's parts, as `SupportCommandOptions.withServer` does.
    func withServer<T: Sendable>(
        label: String, _ body: @Sendable @escaping (PurserAssembly) async throws -> T
    ) async throws -> T {
        try await SupportCommandOptions.withServer(
            label: label, config: config, dataDirectory: dataDirectory, port: port, body)
    }
}
