import AppStoreSimulator
import AppStoreVerification
import ArgumentParser
import Crypto
import Foundation

extension Purser {
    /// `purser bench verify`: µs per verified-and-decoded JWS against µs per raw P-256 verification.
    struct BenchVerify: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "verify",
            abstract: "µs per verified and decoded signed transaction, and per raw P-256 verify, with their ratio.")

        @Option(help: "Iterations per measurement.") var iterations = 20_000
        @Option(help: "Rounds; the best round of each measurement is reported.") var rounds = 5

        func run() async throws {
            let authority = try SimulatorCertificateAuthority.generate(validity: .standard(now: Date()))
            let store = try SimulatedAppStore(signer: JWSSigner(authority: authority))
            let (_, jws) = try await store.purchase(
                .init(productId: "com.example.gold60", appAccountToken: UUID().uuidString))
            let verifier = SignedDataVerifier(configuration: .init(trustedRoots: [authority.root]))
            let uncached = SignedDataVerifier(
                configuration: .init(trustedRoots: [authority.root], chainCacheCapacity: 0))
            _ = try await verifier.verifyTransaction(jws)

            let parts = jws.split(separator: ".")
            let message = Data(jws.utf8.prefix(parts[0].utf8.count + 1 + parts[1].utf8.count))
            let signature = try authority.leafKey.signature(for: message)
            let key = authority.leafKey.publicKey

            var best = (jws: Double.infinity, raw: Double.infinity, cold: Double.infinity)
            for round in 1...rounds {
                let raw = measure(iterations) { precondition(key.isValidSignature(signature, for: message)) }
                let warm = try await measureAsync(iterations) { _ = try await verifier.verifyTransaction(jws) }
                let cold = try await measureAsync(max(iterations / 50, 20)) {
                    _ = try await uncached.verifyTransaction(jws)
                }
                best = (min(best.jws, warm), min(best.raw, raw), min(best.cold, cold))
                print(
                    String(
                        format: "round %d/%d: verify+decode %.1f µs, raw P-256 verify %.1f µs, uncached chain %.1f µs",
                        round, rounds, warm, raw, cold))
            }
            print(String(format: "verify+decode (chain cached): %.1f µs per JWS", best.jws))
            print(String(format: "raw P-256 signature verify:   %.1f µs", best.raw))
            print(String(format: "ratio:                        %.2f (goal ≤ 2.0)", best.jws / best.raw))
            print(
                String(
                    format: "uncached chain, for scale:    %.1f µs per JWS (%.1f× raw)", best.cold, best.cold / best.raw
                ))
        }

        /// Mean µs per call of `body` over `count` calls.
        private func measure(_ count: Int, _ body: () throws -> Void) rethrows -> Double {
            let start = ContinuousClock.now
            for _ in 0..<count { try body() }
            return (ContinuousClock.now - start).microseconds / Double(count)
        }

        private func measureAsync(_ count: Int, _ body: () async throws -> Void) async rethrows -> Double {
            let start = ContinuousClock.now
            for _ in 0..<count { try await body() }
            return (ContinuousClock.now - start).microseconds / Double(count)
        }
    }
}

extension Duration {
    var microseconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) * 1_000_000 + Double(attoseconds) / 1_000_000_000_000
    }
}
