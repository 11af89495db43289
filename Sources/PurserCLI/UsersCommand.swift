import ArgumentParser
import Foundation
import PurserCore
import PurserServer
import PurserStorage

extension Purser {
    /// `purser users export|erase ID`: a user's data on request (Apple's guideline 5.1.1(v), the GDPR), on the ledger
    /// of `--config`, with `serve` running or not.
    struct UsersCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "users", abstract: "Export everything the ledger holds about a user, or erase the user.",
            subcommands: [Export.self, Erase.self])

        /// `purser users export ID`: every row that holds the id, per table, as JSON; with `--to`, in a new file only
        /// its owner may read.
        struct Export: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Print, as JSON, every row of every table that holds the user's id.")

            @OptionGroup var options: LedgerCommandOptions
            @Argument(help: "The user's id.") var id: String
            @Option(help: "Write the JSON to this new file (mode 0600) instead; an existing file is never overwritten.")
            var to: String?

            func run() async throws {
                let export = try await options.withServer(label: "purser.users") { assembly in
                    try await assembly.users.export(UserID(id))
                }
                guard let to else { return printJSON(export) }
                guard try OwnerOnlyFiles.write(Data((jsonText(export) + "\n").utf8), toNewFile: to) else {
                    throw ValidationError("\(to) exists; an export never overwrites a file")
                }
                print("exported: \(id) to \(to) (mode 0600)")
            }
        }

        /// `purser users erase ID`: the id becomes a keyed pseudonym everywhere; the money stays.
        struct Erase: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Replace the user's id with a keyed pseudonym in every row, keeping the accounts.",
                discussion: """
                    Amounts, transaction ids and dates stay, now under the pseudonym (erased-…, an HMAC of the id \
                    under erasure.key, or a key derived from admin.token); the user's wallet metadata is dropped. \
                    A caller's idempotency id that embeds the user's id is kept and reported, since rewriting it \
                    would let a retry apply twice. Audited, with a user.erased webhook event.
                    """)

            @OptionGroup var options: LedgerCommandOptions
            @Argument(help: "The user's id.") var id: String
            @OptionGroup var operatorOption: OperatorOption

            func run() async throws {
                let erased = try await options.withServer(label: "purser.users") { assembly in
                    try await assembly.users.erase(UserID(id), cause: "support by \(operatorOption.name)")
                }
                let rows = erased.rows.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
                print("erased: \(id) is \(erased.userId) from now on")
                print("rows rewritten: " + rows.joined(separator: ", "))
                for (table, count) in erased.kept.sorted(by: { $0.key < $1.key }) {
                    print("kept: \(count) caller idempotency id(s) in \(table) that embed the id")
                }
                print("event: \(erased.eventId) (user.erased)")
                print("rows that still hold the id: \(erased.remaining)")
            }
        }
    }
}
