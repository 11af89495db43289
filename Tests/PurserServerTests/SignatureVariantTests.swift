import AppStoreVerification
import Foundation
import HummingbirdTesting
import PurserCore
import Testing

/// The other ECDSA signature `(r, n − s)` of a genuine JWS verifies, as it does for Apple's verifiers
/// (AppStoreVerificationTests' `SignatureMalleabilityTests` says why Purser accepts it); the ledger keys decisions by
/// `transactionId`, so submitting the variant credits nothing new.
@Suite struct SignatureVariantTests {
    static func otherSignature(of jws: String) throws -> String {
        let order = Array(Data(base64Encoded: "/////wAAAAD//////////7zm+q2nF56E87nKwvxjJVE=")!)
        let parts = jws.split(separator: ".").map(String.init)
        let signature = try #require(Base64URL.decode(parts[2].utf8))
        let s = Array(signature.suffix(32))
        var flipped = [UInt8](repeating: 0, count: 32)
        var borrow = 0
        for index in (0..<32).reversed() {
            let difference = Int(order[index]) - Int(s[index]) - borrow
            flipped[index] = UInt8((difference + 256) % 256)
            borrow = difference < 0 ? 1 : 0
        }
        return parts[0] + "." + parts[1] + "." + Base64URL.encode(Data(signature.prefix(32) + flipped))
    }

    @Test func theOtherSignatureOfASubmittedTransactionCreditsNothingNew() async throws {
        try await TestServer.run { server, client in
            let order = try await server.order("gold60", for: "alice", client: client)
            let (_, jws) = try await server.pay("gold60", token: order.appAccountToken)
            let variant = try Self.otherSignature(of: jws)
            #expect(try await client.submit(jws, user: "alice").decode(DecisionResponse.self).decision == "delivered")
            let again = try await client.submit(variant, user: "alice").decode(DecisionResponse.self)
            #expect(again.decision == "alreadyDelivered")
            let byBob = try await client.submit(variant, user: "bob").decode(DecisionResponse.self)
            #expect(byBob.decision == "deliveredToOtherAccount")
            #expect(try await client.wallet("alice") == ["gold": 60])
            #expect(try await client.wallet("bob") == [:])
        }
    }
}
