import AppStoreSimulator
import AppStoreVerification
import Crypto
import Foundation
import X509

/// Chains and hand-made JWS for verifier tests, generated in code from a fixed reference time.
enum TestChain {
    /// 2024-01-01T00:00:00Z.
    static let reference = Date(timeIntervalSince1970: 1_704_067_200)

    static func authority(
        validity: SimulatorCertificateAuthority.Validity = .standard(now: reference),
        defects: SimulatorCertificateAuthority.Defects = .init()
    ) throws -> SimulatorCertificateAuthority {
        try SimulatorCertificateAuthority.generate(validity: validity, defects: defects)
    }

    static func transaction(
        signedAt: Date? = reference, bundle: String = "com.example.app",
        environment: String = "Sandbox", id: String = "2000000000000042"
    ) -> JWSTransaction {
        var transaction = JWSTransaction(transactionId: id, bundleId: bundle, productId: "com.example.gold60")
        transaction.originalTransactionId = id
        transaction.quantity = 1
        transaction.type = "Consumable"
        transaction.environment = environment
        transaction.appAccountToken = "0b9d2c9e-6f3c-4b8e-9f6a-2c1d3e4f5a6b"
        transaction.purchaseDate = signedAt?.appStoreMilliseconds
        transaction.signedDate = signedAt?.appStoreMilliseconds
        return transaction
    }

    /// A compact JWS with any `x5c` list and payload, signed by `key`.
    static func jws(x5c: [Certificate], payload: some Encodable, key: P256.Signing.PrivateKey, alg: String = "ES256")
        throws -> String
    {
        let chain = x5c.map { Data(SimulatorCertificateAuthority.der($0)).base64EncodedString() }
        let header = try JSONSerialization.data(withJSONObject: ["alg": alg, "x5c": chain])
        let input = Base64URL.encode(header) + "." + Base64URL.encode(try JSONEncoder().encode(payload))
        return input + "." + Base64URL.encode(try key.signature(for: Data(input.utf8)).rawRepresentation)
    }

    static func verifier(
        trusting roots: [Certificate], claims: ClaimsPolicy = .none,
        now: Date = reference
    ) -> SignedDataVerifier {
        SignedDataVerifier(configuration: .init(trustedRoots: roots, claims: claims), now: { now })
    }
}

extension TestChain {
    /// RSA receipt chains made once per test process (key generation takes a moment): SHA-1 and SHA-256 chains valid
    /// around `reference`, a foreign chain nobody trusts, and one without Apple's leaf marker.
    static let receiptSHA256 = try! ReceiptCertificateAuthority.generate(validity: .standard(now: reference))
    static let receiptSHA1 = try! ReceiptCertificateAuthority.generate(
        validity: .standard(now: reference), digest: .sha1)
    static let receiptForeign = try! ReceiptCertificateAuthority.generate(
        validity: .standard(now: reference), name: "Someone Else")
    static let receiptUnmarked = try! ReceiptCertificateAuthority.generate(
        validity: .standard(now: reference), defects: .init(omitLeafMarker: true))
}
