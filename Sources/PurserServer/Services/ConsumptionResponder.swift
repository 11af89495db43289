import Foundation
import PurserCore
import PurserStorage

/// Answers Apple's CONSUMPTION_REQUEST from the ledger (was it delivered, how much was consumed), when the app has
/// configured that it may share this. The App Store Server API call itself is injected.
public struct ConsumptionResponder: Sendable {
    /// What Purser tells Apple about one transaction.
    public struct Report: Sendable, Hashable {
        /// Apple's `deliveryStatus`: "DELIVERED", or "UNDELIVERED_OTHER" when the ledger never credited it.
        public var deliveryStatus: String
        public var transactionID: String
    }

    let store: any LedgerStore
    let send: @Sendable (Report) async throws -> Void

    public init(store: any LedgerStore, send: @escaping @Sendable (Report) async throws -> Void) {
        self.store = store
        self.send = send
    }

    func respond(to transactionID: String) async throws -> String {
        let record = try await store.transaction(transactionID)
        let delivered = record?.state == .credited
        let report = Report(deliveryStatus: delivered ? "DELIVERED" : "UNDELIVERED_OTHER", transactionID: transactionID)
        try await send(report)
        return "consumption information sent: \(report.deliveryStatus)"
    }
}
