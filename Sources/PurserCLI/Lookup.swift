import ArgumentParser
import Foundation
import PurserServer

extension Purser {
    /// `purser lookup`: what happened to a customer's purchase, by the order id on Apple's e-mail receipt.
    struct Lookup: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "Show a customer's transactions by Apple order id (or one transaction), with ledger state and owner.")

        @OptionGroup var options: SupportCommandOptions
        @Option(name: .customLong("order-id"), help: "The order id on the customer's e-mail receipt from Apple.")
        var orderID: String?
        @Option(name: .customLong("transaction-id"), help: "One transaction id instead.") var transactionID: String?
        @Option(
            name: .customLong("app-transaction-id"),
            help: "Apple's appTransactionId: every transaction of that Apple account in this app, from the ledger.")
        var appTransactionID: String?

        func validate() throws {
            guard [orderID, transactionID, appTransactionID].compactMap({ $0 }).count == 1 else {
                throw ValidationError("give exactly one of --order-id, --transaction-id and --app-transaction-id")
            }
        }

        /// One rule for every kind of id: what was found is printed as JSON (exit 0); nothing found, or an id that
        /// cannot be one, is a `ServiceError`, which `purser` prints as `code: message` and exits 1.
        func run() async throws {
            let views = try await options.withServer(label: "purser.lookup") { assembly in
                let support = assembly.support
                if let orderID { return try await support.lookUp(appleOrderID: orderID) }
                if let appTransactionID { return try await support.lookUp(appTransactionID: appTransactionID) }
                return [try await support.view(transactionID: transactionID ?? "")]
            }
            guard !views.isEmpty else {
                throw ServiceError(
                    .notFound,
                    orderID.map { "Apple knows no transaction of order \($0)" }
                        ?? "the ledger holds no transaction of appTransactionId \(appTransactionID ?? "")")
            }
            printJSON(views)
        }
    }
}

/// Prints a value as pretty JSON with ISO 8601 dates.
func printJSON(_ value: some Encodable) {
    print(jsonText(value))
}

/// `value` as the commands print JSON: pretty, keys sorted, dates in ISO 8601.
func jsonText(_ value: some Encodable) -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    encoder.dateEncodingStrategy = .iso8601
    return String(decoding: (try? encoder.encode(value)) ?? Data(), as: UTF8.self)
}
