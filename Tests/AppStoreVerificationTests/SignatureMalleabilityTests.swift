import AppStoreSimulator
import AppStoreVerification
import Foundation
import Testing

/// ECDSA's other signature: for a valid `(r, s)`, `(r, n − s)` verifies too. Apple's verifiers (its Swift and Python
/// libraries, over swift-crypto / BoringSSL and OpenSSL) accept both, and so must Purser: P-256 signers do not
/// normalise `s`, so about half of all genuine signatures are "high-S" (this simulator's too). Refusing them would
/// refuse genuine purchases. The variant is harmless here: it carries the same signed payload, and the ledger keys
/// every decision by `transactionId` (notifications by `notificationUUID`), never by the signature's bytes.
@Suite struct SignatureMalleabilityTests {
    /// The order of P-256's base point, big-endian.
    static let order: [UInt8] = Array(
        Data(base64Encoded: "/////wAAAAD//////////7zm+q2nF56E87nKwvxjJVE=")!)

    /// The JWS with `s` replaced by `n − s`.
    static func otherSignature(of jws: String) throws -> (jws: String, wasHighS: Bool) {
        let parts = jws.split(separator: ".").map(String.init)
        let signature = try #require(Base64URL.decode(parts[2].utf8))
        try #require(signature.count == 64)
        let s = Array(signature.suffix(32))
        var flipped = [UInt8](repeating: 0, count: 32)
        var borrow = 0
        for index in (0..<32).reversed() {
            let difference = Int(order[index]) - Int(s[index]) - borrow
            flipped[index] = UInt8((difference + 256) % 256)
            borrow = difference < 0 ? 1 : 0
        }
        // s > n/2 exactly when n − s < s.
        let wasHighS = flipped.lexicographicallyPrecedes(s)
        return (parts[0] + "." + parts[1] + "." + Base64URL.encode(Data(signature.prefix(32) + flipped)), wasHighS)
    }

    @Test func theOtherSignatureOfAGenuineJWSVerifiesToTheSamePayload() async throws {
        let authority = try TestChain.authority()
        let signer = JWSSigner(authority: authority)
        let verifier = TestChain.verifier(trusting: [authority.root])
        var highS = 0
        for _ in 0..<20 {
            let jws = try signer.sign(TestChain.transaction())
            let (variant, wasHighS) = try Self.otherSignature(of: jws)
            if wasHighS { highS += 1 }
            #expect(variant != jws)
            #expect(try await verifier.verifyTransaction(variant) == TestChain.transaction())
        }
        #expect(highS > 0, "genuine signatures are high-S about half the time; refusing them refuses genuine ones")
        #expect(highS < 20)
    }
}
