import AppStoreSimulator
import AppStoreVerification
import ArgumentParser
import Foundation

extension Purser {
    /// `purser bench receipt`: µs per decoded StoreKit 1 app receipt, for receipts of 1, 10 and 100 in-app purchases.
    struct BenchReceipt: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "receipt",
            abstract: "µs per decoded app receipt (AppReceiptParser.parse(der:)) with 1, 10 and 100 in-app purchases.")

        @Option(help: "Iterations per measurement of the one-purchase receipt; larger ones get proportionally fewer.")
        var iterations = 20_000
        @Option(help: "Rounds; the best round of each measurement is reported.") var rounds = 5

        func validate() throws {
            guard iterations > 0, rounds > 0 else {
                throw ValidationError("--iterations and --rounds must be positive")
            }
        }

        func run() throws {
            let now = Date()
            let authority = try SimulatorCertificateAuthority.generate(validity: .standard(now: now))
            let issuer = AppReceiptIssuer(authority: authority)
            let sizes = [1, 10, 100]
            let receipts = try sizes.map { try issuer.issue(Self.receipt(purchases: $0, at: now), signingTime: now) }
            for (size, der) in zip(sizes, receipts) {
                // Check once, outside the clock, that the figures measure a full decode.
                let decoded = try AppReceiptParser.parse(der: der)
                precondition(decoded.inAppPurchases.count == size)
            }

            var best = [Double](repeating: .infinity, count: sizes.count)
            for round in 1...rounds {
                var line = "round \(round)/\(rounds):"
                for (index, der) in receipts.enumerated() {
                    let count = max(iterations / sizes[index], 100)
                    let micros = try measure(count) { try AppReceiptParser.parse(der: der).inAppPurchases.count }
                    best[index] = min(best[index], micros)
                    line += String(format: " %d purchases %.2f µs,", sizes[index], micros)
                }
                print(line)
            }
            for (index, size) in sizes.enumerated() {
                print(
                    String(
                        format: "%3d in-app purchases (%5d bytes): %8.2f µs per receipt, %.2f µs per purchase",
                        size, receipts[index].count, best[index], best[index] / Double(size)))
            }
            print("goal: ≤ 10 µs for one purchase (\(best[0] <= 10 ? "met" : "missed"))")
        }

        /// Mean µs per call of `body` over `count` calls; the sum of what `body` returns keeps the work observable.
        private func measure(_ count: Int, _ body: () throws -> Int) rethrows -> Double {
            var total = 0
            let start = ContinuousClock.now
            for _ in 0..<count { total &+= try body() }
            let elapsed = ContinuousClock.now - start
            precondition(total > 0)
            return elapsed.microseconds / Double(count)
        }

        /// A receipt like the App Store's, with `purchases` consumables: every field set, as real receipts carry them.
        static func receipt(purchases: Int, at now: Date) -> AppReceipt {
            let second = Date(timeIntervalSince1970: now.timeIntervalSince1970.rounded(.down))
            let entries = (0..<purchases).map { (index: Int) -> InAppPurchaseReceipt in
                let id = String(2_000_000_000_000_000 + index)
                let date = second.addingTimeInterval(Double(index))
                return InAppPurchaseReceipt(
                    quantity: 1, productId: "com.example.purser.gold60", transactionId: id,
                    originalTransactionId: id, purchaseDate: date, originalPurchaseDate: date)
            }
            return AppReceipt(
                bundleId: "com.example.purser.demo", applicationVersion: "42",
                originalApplicationVersion: "1.0", creationDate: second, environment: "Production",
                inAppPurchases: entries)
        }
    }
}
