import AppStoreSimulator
import AppStoreVerification
import Crypto
import Foundation
import PurserCore
import Testing
import X509

@Suite struct SignedDataVerifierTests {
    let authority: SimulatorCertificateAuthority
    let signer: JWSSigner

    init() throws {
        authority = try TestChain.authority()
        signer = JWSSigner(authority: authority)
    }

    private func expectFailure(
        _ code: VerificationError.Code, _ jws: String, verifier: SignedDataVerifier? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async {
        let verifier = verifier ?? TestChain.verifier(trusting: [authority.root])
        do {
            _ = try await verifier.verifyTransaction(jws)
            Issue.record("expected \(code), but it verified", sourceLocation: sourceLocation)
        } catch {
            #expect(error.code == code, "got \(error)", sourceLocation: sourceLocation)
        }
    }

    @Test func verifiesAndDecodesASimulatorSignedTransaction() async throws {
        let jws = try signer.sign(TestChain.transaction())
        let decoded = try await TestChain.verifier(trusting: [authority.root]).verifyTransaction(jws)
        #expect(decoded == TestChain.transaction())
        #expect(decoded.appleTransaction().appAccountToken == OrderID("0B9D2C9E-6F3C-4B8E-9F6A-2C1D3E4F5A6B"))
    }

    @Test func rejectsStructurallyBrokenInput() async throws {
        let jws = try signer.sign(TestChain.transaction())
        let parts = jws.split(separator: ".").map(String.init)
        await expectFailure(.malformed, parts[0] + "." + parts[1])
        await expectFailure(.malformed, "")
        await expectFailure(.malformed, parts[0] + ".!!!not base64!!!." + parts[2])
        await expectFailure(.malformed, "e30." + parts[1] + "." + parts[2])  // header {} has no alg
        await expectFailure(.malformed, parts[0] + "." + Base64URL.encode(Data("not json".utf8)) + "." + parts[2])
        await expectFailure(.malformed, String(repeating: "a", count: 300_000))
    }

    /// The unverified peeks (what reconciliation skips by) read the payload's claims from any JWS shape, check
    /// nothing, and answer nil for what has no such claim.
    @Test func peeksReadClaimsWithoutVerifyingAndNothingElse() throws {
        var refunded = TestChain.transaction(id: "2000000000000077")
        refunded.revocationDate = TestChain.reference.appStoreMilliseconds
        let jws = try signer.sign(refunded)
        let claim = try #require(SignedDataVerifier.unverifiedTransactionClaim(of: jws))
        #expect(claim.transactionID == "2000000000000077" && claim.revoked)
        let plain = try #require(
            SignedDataVerifier.unverifiedTransactionClaim(of: try signer.sign(TestChain.transaction())))
        #expect(plain.transactionID == "2000000000000042" && !plain.revoked)
        // Unverified: a forged signature still peeks (it may only skip itself), and so does a missing one.
        let parts = jws.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        #expect(SignedDataVerifier.unverifiedTransactionClaim(of: parts[0] + "." + parts[1] + ".AAAA")?.revoked == true)
        #expect(SignedDataVerifier.unverifiedTransactionClaim(of: "x." + parts[1] + ".") != nil)
        for broken in ["", parts[1], "." + parts[1], parts[0] + "..", parts[0] + ".!!." + parts[2]] {
            #expect(SignedDataVerifier.unverifiedTransactionClaim(of: broken) == nil, "\(broken.prefix(20))")
        }
        #expect(SignedDataVerifier.unverifiedNotificationUUID(of: jws) == nil, "a transaction has no notificationUUID")
        let notification = try signer.sign(["notificationUUID": "5E1D0F3A-2B4C-4D6E-8F90-A1B2C3D4E5F6"])
        #expect(
            SignedDataVerifier.unverifiedNotificationUUID(of: notification) == "5E1D0F3A-2B4C-4D6E-8F90-A1B2C3D4E5F6")
        #expect(SignedDataVerifier.unverifiedTransactionClaim(of: notification) == nil)
    }

    @Test func rejectsAChainOfTwoCertificates() async throws {
        let jws = try TestChain.jws(
            x5c: [authority.leaf, authority.intermediate], payload: TestChain.transaction(),
            key: authority.leafKey)
        await expectFailure(.untrustedChain, jws)
    }

    @Test func rejectsAlgorithmsOtherThanES256() async throws {
        let jws = try TestChain.jws(
            x5c: [authority.leaf, authority.intermediate, authority.root],
            payload: TestChain.transaction(), key: authority.leafKey, alg: "HS256")
        await expectFailure(.malformed, jws)
    }

    @Test func rejectsChainsWithoutApplesMarkers() async throws {
        for defects in [
            SimulatorCertificateAuthority.Defects(omitLeafMarker: true), .init(omitIntermediateMarker: true),
        ] {
            let defective = try TestChain.authority(defects: defects)
            await expectFailure(
                .missingAppleOID, try JWSSigner(authority: defective).sign(TestChain.transaction()),
                verifier: TestChain.verifier(trusting: [defective.root]))
        }
    }

    @Test func rejectsATamperedPayload() async throws {
        let parts = try signer.sign(TestChain.transaction()).split(separator: ".").map(String.init)
        var forged = TestChain.transaction()
        forged.quantity = 99
        let payload = Base64URL.encode(try JSONEncoder().encode(forged))
        await expectFailure(.badSignature, parts[0] + "." + payload + "." + parts[2])
        await expectFailure(
            .badSignature, parts[0] + "." + parts[1] + "." + Base64URL.encode(Data(repeating: 7, count: 64)))
    }

    @Test func rejectsAChainToAForeignRoot() async throws {
        let foreign = try TestChain.authority()
        await expectFailure(.untrustedChain, try JWSSigner(authority: foreign).sign(TestChain.transaction()))
        // Apple's real root does not vouch for the simulator either.
        await expectFailure(
            .untrustedChain, try signer.sign(TestChain.transaction()),
            verifier: TestChain.verifier(trusting: [AppleRootCertificates.rootCAG3]))
    }

    @Test func rejectsAnIntermediateFromAnotherChain() async throws {
        let other = try TestChain.authority()
        let jws = try TestChain.jws(
            x5c: [authority.leaf, other.intermediate, authority.root],
            payload: TestChain.transaction(), key: authority.leafKey)
        await expectFailure(.untrustedChain, jws, verifier: TestChain.verifier(trusting: [authority.root, other.root]))
    }

    @Test func checksValidityAtTheSigningTimeNotNow() async throws {
        // A chain that expired long ago still verifies what it signed while valid, as Apple's old JWS do.
        let start = TestChain.reference.addingTimeInterval(-3 * 365 * 86_400)
        let old = try TestChain.authority(
            validity: .init(
                notBefore: start, rootNotAfter: start + 20 * 365 * 86_400,
                intermediateNotAfter: start + 10 * 365 * 86_400,
                leafNotAfter: start + 365 * 86_400))
        let verifier = TestChain.verifier(trusting: [old.root], now: TestChain.reference)
        let oldSigner = JWSSigner(authority: old)
        _ = try await verifier.verifyTransaction(try oldSigner.sign(TestChain.transaction(signedAt: start + 86_400)))
        // Signed after the leaf expired: refused, even though the chain is now cached.
        await expectFailure(
            .expired, try oldSigner.sign(TestChain.transaction(signedAt: start + 400 * 86_400)), verifier: verifier)
        // No signedDate: the current time counts, and the leaf has expired by then.
        await expectFailure(
            .expired, try oldSigner.sign(TestChain.transaction(signedAt: nil)),
            verifier: TestChain.verifier(trusting: [old.root], now: TestChain.reference))
        // Signed before the chain existed.
        await expectFailure(
            .expired, try oldSigner.sign(TestChain.transaction(signedAt: start - 86_400)),
            verifier: TestChain.verifier(trusting: [old.root]))
    }

    @Test func checksClaims() async throws {
        let claims = ClaimsPolicy(bundleID: "com.example.app", environments: [.production], appAppleID: 42)
        let verifier = TestChain.verifier(trusting: [authority.root], claims: claims)
        await expectFailure(
            .wrongBundle, try signer.sign(TestChain.transaction(bundle: "com.other.app", environment: "Production")),
            verifier: verifier)
        await expectFailure(.wrongEnvironment, try signer.sign(TestChain.transaction()), verifier: verifier)
        _ = try await verifier.verifyTransaction(try signer.sign(TestChain.transaction(environment: "Production")))

        let nested = try signer.sign(TestChain.transaction(environment: "Production"))
        func notification(app: Int64?) throws -> String {
            try signer.sign(
                JWSNotification(
                    notificationType: "ONE_TIME_CHARGE", notificationUUID: UUID().uuidString,
                    data: .init(
                        appAppleId: app, bundleId: "com.example.app", environment: "Production",
                        signedTransactionInfo: nested),
                    signedDate: TestChain.reference.appStoreMilliseconds))
        }
        let verified = try await verifier.verifyNotification(try notification(app: 42))
        #expect(verified.transaction?.transactionId == "2000000000000042")
        let otherApp = try notification(app: 7)
        do {
            _ = try await verifier.verifyNotification(otherApp)
            Issue.record("a notification for another app verified")
        } catch {
            #expect(error.code == .wrongApp)
        }
    }

    @Test func tellsNotificationsFromTransactions() async throws {
        let verifier = TestChain.verifier(trusting: [authority.root])
        let transaction = try signer.sign(TestChain.transaction())
        guard case .transaction = try await verifier.verify(transaction) else {
            Issue.record("not a transaction")
            return
        }
        let notification = try signer.sign(
            JWSNotification(
                notificationType: "TEST", notificationUUID: UUID().uuidString, data: nil,
                signedDate: TestChain.reference.appStoreMilliseconds))
        guard case .notification(let decoded) = try await verifier.verify(notification) else {
            Issue.record("not a notification")
            return
        }
        #expect(decoded.notification.notificationType == "TEST")
    }

    @Test func embedsAppleRootCAG3() throws {
        let fingerprint = SHA256.hash(data: AppleRootCertificates.rootCAG3DER).map { String(format: "%02X", $0) }
            .joined(separator: ":")
        #expect(
            fingerprint
                == "63:34:3A:BF:B8:9A:6A:03:EB:B5:7E:9B:3F:5F:A7:BE:7C:4F:5C:75:6F:30:17:B3:A8:C4:88:C3:65:3E:91:79")
        #expect(AppleRootCertificates.rootCAG3.subject.description.contains("Apple Root CA - G3"))
    }
}
