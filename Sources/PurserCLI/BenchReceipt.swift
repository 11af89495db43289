import AppStoreSimulator
import AppStoreVerification
import ArgumentParser
import Crypto
import Foundation
import _CryptoExtras

extension Purser {
    /// `purser bench receipt`: µs per decoded StoreKit 1 app receipt, for receipts of 1, 10 and 100 in-app purchases;
    /// then the local signature check per receipt beside one raw RSA-2048 verification, measured in the same run.
    struct BenchReceipt: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "receipt",
            abstract: "µs per decoded app receipt (1, 10, 100 purchases) and per local signature check vs raw RSA.")

        @Option(help: "Iterations per measurement of the one-purchase receipt; larger ones get proportionally fewer.")
        var iterations = 20_000
        @Option(help: "Rounds; the best round of each measurement is reported.") var rounds = 5

        func validate() throws {
            guard iterations > 0, rounds > 0 else {
                throw ValidationError("--iterations and --rounds must be positive")
            }
        }

        func run() async throws {
            let now = Date()
            let issuer = AppReceiptIssuer(authority: .ephemeral)
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
            for digest in ReceiptCertificateAuthority.Digest.allCases {
                try await benchSignature(digest: digest, at: now)
            }
        }

        /// The local check (`AppReceiptVerifier.verify`, warm: signed data, content decode, cached chain, one RSA
        /// verification) of a one-purchase receipt against one raw RSA-2048 verification of the same signature over
        /// the same content (digest included), alternating, best round of each.
        private func benchSignature(digest: ReceiptCertificateAuthority.Digest, at now: Date) async throws {
            let authority =
                digest == .sha256
                ? ReceiptCertificateAuthority.ephemeral
                : try ReceiptCertificateAuthority.generate(validity: .standard(now: now), digest: digest)
            let content = AppReceiptEncoder.payload(Self.receipt(purchases: 1, at: now))
            let der = try AppReceiptIssuer(authority: authority).issue(
                Self.receipt(purchases: 1, at: now), signingTime: now)
            let verifier = AppReceiptVerifier(configuration: .init(trustedRoots: [authority.root]))
            _ = try await verifier.verify(der: der)  // warms the chain cache, and proves the receipt verifies
            let key = authority.leafKey.publicKey
            let signature = try authority.leafKey.signature(
                for: SHA256.hash(data: content), padding: .insecurePKCS1v1_5)
            let sha1Signature = try authority.leafKey.signature(
                for: Insecure.SHA1.hash(data: content), padding: .insecurePKCS1v1_5)
            let raw: () -> Bool =
                digest == .sha256
                ? { key.isValidSignature(signature, for: SHA256.hash(data: content), padding: .insecurePKCS1v1_5) }
                : {
                    key.isValidSignature(
                        sha1Signature, for: Insecure.SHA1.hash(data: content), padding: .insecurePKCS1v1_5)
                }
            precondition(raw())
            let count = max(iterations / 10, 200)
            var (bestLocal, bestRaw) = (Double.infinity, Double.infinity)
            for _ in 1...rounds {
                bestRaw = min(bestRaw, measure(count) { raw() ? 1 : 0 })
                bestLocal = min(
                    bestLocal,
                    try await measureAsync(count) {
                        try await verifier.verify(der: der).inAppPurchases.count
                    })
            }
            let ratio = bestLocal / bestRaw
            print(
                String(
                    format: "local signature check (%@ chain, %d bytes): %.2f µs per receipt; one raw RSA-2048 "
                        + "verification: %.2f µs; ratio %.2f (goal ≤ 1.3: %@)",
                    digest.rawValue.uppercased(), der.count, bestLocal, bestRaw, ratio, ratio <= 1.3 ? "met" : "missed")
            )
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

        private func measureAsync(_ count: Int, _ body: () async throws -> Int) async rethrows -> Double {
            var total = 0
            let start = ContinuousClock.now
            for _ in 0..<count { total &+= try await body() }
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
