import ArgumentParser
import Foundation
import Logging
import PurserServer
import PurserStorage

extension Purser {
    /// `purser keys create|list|revoke`: the admin API's keys, in the ledger of `--config`, with `serve` running or
    /// not; every replica on that ledger knows a new or revoked key at its next request.
    struct KeysCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "keys", abstract: "Make, list and revoke the admin API's keys, each with only its scopes.",
            subcommands: [Create.self, List.self, Revoke.self])

        /// `purser keys create`: prints the secret once; the ledger keeps only its hash.
        struct Create: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Make a key and print its secret, once.",
                discussion: """
                    Scopes: ledger:read (lookups, search, wallet reads, exports), support:write (bind, make good, \
                    erase), webhooks:write (replay, test), wallet:write (the game backend's spends, deposits and \
                    holds), keys:admin (list, make and revoke keys), * (everything). Use the secret as \
                    Authorization: Bearer SECRET on /admin/v1.
                    """)

            @OptionGroup var options: LedgerLocationOptions
            @Option(help: "The key's name (1 to 64 letters, digits, '.', '_' or '-'); audit records name it key:NAME.")
            var name: String
            @Option(help: "Comma-separated scopes, e.g. wallet:write,ledger:read.") var scopes: String
            @Option(help: "Comma-separated bundle ids the key may act on (default: every app).") var apps: String?
            @Option(name: .customLong("expires-in"), help: "Days until the key stops working (default: never).")
            var expiresIn: Int?
            @OptionGroup var operatorOption: OperatorOption

            func run() async throws {
                let created = try await options.withKeys { keys in
                    try await keys.create(
                        name: name, scopes: [scopes], apps: apps.map { [$0] }, expiresInDays: expiresIn,
                        by: operatorOption.name)
                }
                print("key: \(created.key.name)")
                print("scopes: \(created.key.scopes.joined(separator: ", "))")
                print("apps: \(created.key.apps?.joined(separator: ", ") ?? "every app")")
                print("expires: \(created.key.expiresAt.map { Self.format($0) } ?? "never")")
                print("secret: \(created.secret)")
                print("The secret is shown this once; the ledger keeps only its hash.")
            }

            static func format(_ date: Date) -> String { ISO8601DateFormatter().string(from: date) }
        }

        /// `purser keys list`: every key, its state, scopes and apps; never a secret.
        struct List: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "List every key (active, expired and revoked) with its scopes and apps.")

            @OptionGroup var options: LedgerLocationOptions
            @Flag(help: "Print JSON instead of a table.") var json = false

            func run() async throws {
                let keys = try await options.withKeys { try await $0.list() }
                if json { return printJSON(["keys": keys]) }
                print("NAME\tSTATE\tSCOPES\tAPPS\tCREATED\tEXPIRES")
                for key in keys {
                    print(
                        [
                            key.name, key.state, key.scopes.joined(separator: ","),
                            key.apps?.joined(separator: ",") ?? "*", Create.format(key.createdAt),
                            key.expiresAt.map(Create.format) ?? "never",
                        ].joined(separator: "\t"))
                }
            }
        }

        /// `purser keys revoke NAME`: the key stops working on every replica at its next request.
        struct Revoke: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Revoke a key, at once on every replica.")

            @OptionGroup var options: LedgerLocationOptions
            @Argument(help: "The key's name.") var name: String
            @OptionGroup var operatorOption: OperatorOption

            func run() async throws {
                let key = try await options.withKeys { keys in
                    try await keys.revoke(name: name, by: operatorOption.name)
                }
                print("revoked: \(key.name) at \(key.revokedAt.map(Create.format) ?? "?")")
            }
        }
    }
}

extension LedgerLocationOptions {
    /// Runs `body` on the keys of the ledger, migrated first (a key needs migration 14's table), and closes it. The
    /// keys may be limited to the configuration's apps.
    func withKeys<T: Sendable>(_ body: @Sendable @escaping (APIKeyService) async throws -> T) async throws -> T {
        let settings = try await settings()
        var logger = Logger(label: "purser.keys")
        logger.logLevel = .warning
        let store = try await settings.openLedger(logger: logger)
        return try await store.whileRunning {
            try await store.migrate()
            return try await body(
                APIKeyService(store: store, apps: settings.servedApps.map(\.bundleId), now: { Date() }))
        }
    }
}
