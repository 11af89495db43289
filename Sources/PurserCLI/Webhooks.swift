import ArgumentParser
import Foundation
import PurserServer
import PurserStorage

extension Purser {
    /// `purser webhooks list|replay|test`: the webhook outbox for operators, on the ledger of `--config`.
    struct Webhooks: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List webhook deliveries, replay an event, or send each endpoint a signed test event.",
            subcommands: [List.self, Replay.self, Test.self])

        /// `purser webhooks list`: deliveries, newest first.
        struct List: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "List webhook deliveries, newest first: pending, failed, dead or delivered.")

            @OptionGroup var options: LedgerCommandOptions
            @Option(help: "pending, failed, dead or delivered (default: all).") var status: String?
            @Option(help: "At most this many (1 to 1000).") var limit = 100
            @Flag(help: "Print JSON.") var json = false

            func run() async throws {
                let deliveries = try await options.withServer(label: "purser.webhooks") { assembly in
                    try await assembly.webhooks.list(status: status, limit: limit)
                }
                if json { return printJSON(["events": deliveries]) }
                for delivery in deliveries {
                    let next = delivery.nextAttemptAt.map { " next \($0.formatted(.iso8601))" } ?? ""
                    print(
                        "\(delivery.id)  \(delivery.type)  \(delivery.userId)  \(delivery.status.rawValue)  "
                            + "\(delivery.attempts) attempts  \(delivery.endpoint)"
                            + (delivery.lastResult.map { "  last: \($0)" } ?? "") + next)
                }
            }
        }

        /// `purser webhooks replay ID`: sends the event again from the first attempt, audited.
        struct Replay: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Send a webhook event again (dead, failed or delivered) to every endpoint that takes it.",
                discussion: """
                    To an endpoint with ordered: true the event goes in its user's sequence order: after the user's
                    earlier events still pending there, and before the user's later ones, which wait for it.
                    """)

            @OptionGroup var options: LedgerCommandOptions
            @Argument(help: "The event's webhook-id (evt_…).") var id: String
            @OptionGroup var operatorOption: OperatorOption

            func run() async throws {
                let deliveries = try await options.withServer(label: "purser.webhooks") { assembly in
                    try await assembly.webhooks.replay(eventID: id, operator: operatorOption.name)
                }
                printJSON(["deliveries": deliveries])
            }
        }

        /// `purser webhooks test`: a signed `webhook.test` event to every endpoint; exits 1 unless all answer 2xx.
        struct Test: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Post a signed webhook.test event to every endpoint and show each answer.")

            @OptionGroup var options: LedgerCommandOptions

            func run() async throws {
                let results = try await options.withServer(label: "purser.webhooks") { assembly in
                    try await assembly.webhooks.test()
                }
                printJSON(["results": results])
                if results.contains(where: { !$0.delivered }) { throw ExitCode(1) }
            }
        }
    }
}
