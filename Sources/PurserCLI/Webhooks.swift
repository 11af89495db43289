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
                let deliveries = try await serviceErrorsAsExit {
                    try await options.withServer(label: "purser.webhooks") { assembly in
                        try await assembly.webhooks.list(status: status, limit: limit)
                    }
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
                abstract: "Send a webhook event again (dead, failed or delivered) to every endpoint that takes it.")

            @OptionGroup var options: LedgerCommandOptions
            @Argument(help: "The event's webhook-id (evt_…).") var id: String
            @Option(
                name: .customLong("operator"),
                help: "Who replays (default: $USER, else \"operator\"); kept in the audit log.")
            var operatorOption: String?
            var operatorName: String { operatorOption ?? ProcessInfo.processInfo.environment["USER"] ?? "operator" }

            func run() async throws {
                let deliveries = try await serviceErrorsAsExit {
                    try await options.withServer(label: "purser.webhooks") { assembly in
                        try await assembly.webhooks.replay(eventID: id, operator: operatorName)
                    }
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
                let results = try await serviceErrorsAsExit {
                    try await options.withServer(label: "purser.webhooks") { assembly in
                        try await assembly.webhooks.test()
                    }
                }
                printJSON(["results": results])
                if results.contains(where: { !$0.delivered }) { throw ExitCode(1) }
            }
        }
    }
}

/// Runs `body`; a `ServiceError` becomes its code and message on standard error and exit status 1.
func serviceErrorsAsExit<T>(_ body: () async throws -> T) async throws -> T {
    do {
        return try await body()
    } catch let error as ServiceError {
        FileHandle.standardError.write(Data("\(error.code): \(error.message)\n".utf8))
        throw ExitCode(1)
    }
}
