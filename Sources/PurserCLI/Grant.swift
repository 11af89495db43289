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
        @Option(name: .customLong("order-id"), help: "USER's waiting order for the product, which the grant completes.")
        var orderID: String?
        @Option(help: "A refusal to override, audited: product_type_mismatch (the catalog's type is right).")
        var override: String?
        @OptionGroup var operatorOption: OperatorOption

        func validate() throws {
            guard !reason.trimmingCharacters(in: .whitespaces).isEmpty else {
                throw ValidationError("--reason is required")
            }
            guard !user.isEmpty else { throw ValidationError("--user is required") }
            if let orderID, OrderID(orderID) == nil {
                throw ValidationError("--order-id must be a Purser order id (a UUID)")
            }
        }

        func run() async throws {
            let operatorName = operatorOption.name
            let view = try await options.withServer(label: "purser.grant") { assembly in
                try await assembly.support.grant(
                    transactionID: transactionID, to: UserID(user), reason: reason, operator: operatorName,
                    order: orderID.flatMap(OrderID.init), override: override)
            }
            printJSON(view)
        }
    }
}
