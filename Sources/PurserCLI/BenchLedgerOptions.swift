import ArgumentParser
import Foundation
import Logging
import PurserStorage

/// `--storage` and `--database-url` of the benches that run a server (`bench submit`, `bench spend`): the ledger, and
/// for PostgreSQL a fresh database made for each run and dropped afterwards.
struct BenchLedgerOptions: ParsableArguments {
    @Option(help: "Ledger: sqlite (a file in a temporary directory) or postgres (a fresh database per run).")
    var storage = "sqlite"
    @Option(
        name: .customLong("database-url"),
        help: "PostgreSQL server for --storage postgres (default: PURSER_DATABASE_URL); each run makes a database.")
    var databaseURL: String?

    func validate() throws {
        guard ["sqlite", "postgres"].contains(storage) else {
            throw ValidationError("--storage must be sqlite or postgres")
        }
        guard storage == "sqlite" || databaseURL ?? Self.environmentDatabaseURL != nil else {
            throw ValidationError("--storage postgres needs --database-url or PURSER_DATABASE_URL")
        }
    }

    /// Runs `body` with the database URL for this run: with `--storage postgres`, a fresh database made beside
    /// `--database-url` for this run and dropped afterwards; with SQLite, `nil`.
    func withDatabase<T: Sendable>(logger: Logger, _ body: (_ url: String?) async throws -> T) async throws -> T {
        guard storage == "postgres", let server = databaseURL ?? Self.environmentDatabaseURL else {
            return try await body(nil)
        }
        let name = "purser_bench_" + String(UInt64.random(in: .min ... .max), radix: 16)
        let url = try await PostgresLedgerStore.createDatabase(name, besides: server, logger: logger)
        do {
            let result = try await body(url)
            try? await PostgresLedgerStore.dropDatabase(name, besides: server, logger: logger)
            return result
        } catch {
            try? await PostgresLedgerStore.dropDatabase(name, besides: server, logger: logger)
            throw error
        }
    }

    /// `PURSER_DATABASE_URL`, unless unset or empty.
    static var environmentDatabaseURL: String? {
        ProcessInfo.processInfo.environment["PURSER_DATABASE_URL"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// What the ledger is called in the report, with `replicas` servers on it.
    func name(replicas: Int) -> String {
        let servers = replicas == 1 ? "one server" : "\(replicas) servers in this process"
        return storage == "postgres"
            ? "PostgreSQL (\(servers) on one database)" : "SQLite, synchronous=FULL (\(servers) on one file)"
    }
}
