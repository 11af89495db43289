import AppStoreSimulator
import ArgumentParser
import Foundation
import Logging
import PurserCore
import PurserServer
import PurserStorage

extension Purser.BenchSubmit {
    /// The server settings every replica gets: the ledger (SQLite `purser.sqlite` in `directory`, or PostgreSQL at
    /// `databaseURL`), development authentication, a free port, no periodic reconciliation, `threads` event loops,
    /// and tracing to `otlpEndpoint` when given.
    static func settings(
        directory: URL, databaseURL: String?, bundleID: String, threads: Int = 0, otlpEndpoint: String? = nil
    ) -> ServerConfiguration {
        var settings = ServerConfiguration()
        settings.port = 0
        settings.bundleId = bundleID
        settings.auth.mode = .development
        settings.reconciliation.intervalSeconds = 0
        settings.dataDirectory = directory.path
        settings.database.url = databaseURL
        settings.http.threads = threads
        settings.tracing.otlp.endpoint = otlpEndpoint
        return settings
    }

    /// What the ledger is called in the report.
    var ledgerName: String { ledger.name(replicas: replicas) }

    /// Fills the ledger with `count` settled purchases, written through the store itself (no HTTP, no signatures):
    /// for each, an order of one of 10,000 preload users and its credited transaction, exactly the rows a real
    /// credit writes. Many settlements are in flight at once so the store can commit them in big batches. The
    /// transaction ids sort before the App Store simulator's, as older purchases do. Progress goes to stderr.
    static func fillLedger(
        _ count: Int, into store: any LedgerStore, product: ProductDefinition, bundleID: String,
        environment: AppStoreEnvironment
    ) async throws -> Double {
        let progress = BenchProgress("preload", total: count)
        let now = Date()
        try await withThrowingTaskGroup(of: Void.self) { lanes in
            for _ in 0..<256 {
                lanes.addTask {
                    while let index = progress.claim() {
                        let user = UserID(rawValue: "preload-user-\(index % 10_000)")
                        let order = Order(
                            id: .timeOrdered(at: Date()), userID: user, productID: product.id, quantity: 1,
                            createdAt: now)
                        try await store.createOrder(order)
                        let id = String(1_000_000_000_000_000_000 + Int64(index))
                        let transaction = AppleTransaction(
                            transactionID: id, originalTransactionID: id, bundleID: bundleID, productID: product.id,
                            type: product.type.appleType, quantity: 1, purchaseDate: now, appAccountToken: order.id,
                            environment: environment)
                        let settlement = try await store.settle(
                            Submission(
                                transaction: transaction, assessment: .creditable(product), source: .client(user)),
                            now: now)
                        guard settlement.decision == .delivered else {
                            throw ValidationError(
                                "preload: transaction \(id) was not credited (\(settlement.decision))")
                        }
                        progress.complete()
                    }
                }
            }
            try await lanes.waitForAll()
        }
        return progress.elapsedSeconds
    }
}
