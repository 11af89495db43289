import ArgumentParser
import Foundation
import PurserCore
import PurserServer

extension Purser {
    /// `purser grant`: support credits a verified, unbound transaction to a user, once, with a reason in the audit log.
    struct Grant: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Credit a verified transaction that no order binds to USER, once, with the operator's reason.")

        @OptionGroup var options: SupportCommandOptions
        @Option(name: .customLong("transaction-id"), help: "The Apple transaction id.") var transactionID: String
        @Option(help: "The game account to credit.") var user: String
        @Option(help: "Why (kept in the audit log).") var reason: String
        @Option(name: .customLong("operator"), help: "Who grants (default: $USER, else \"operator\").")
        var operatorOption: String?
        var operatorName: String { operatorOption ?? ProcessInfo.processInfo.environment["USER"] ?? "operator" }

        func validate() throws {
            guard !reason.trimmingCharacters(in: .whitespaces).isEmpty else {
                throw ValidationError("--reason is required")
            }
            guard !user.isEmpty else { throw ValidationError("--user is required") }
        }

        func run() async throws {
            do {
                let view = try await options.withServer(label: "purser.grant") { assembly in
                    try await assembly.support.grant(
                        transactionID: transactionID, to: UserID(user), reason: reason,
                        operator: operatorName)
                }
                printJSON(view)
            } catch let error as ServiceError {
                FileHandle.standardError.write(Data("\(error.code): \(error.message)\n".utf8))
                throw ExitCode(1)
            }
        }
    }
}
