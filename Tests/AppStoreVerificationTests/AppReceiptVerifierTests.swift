import AppStoreSimulator
import AppStoreVerification
import Crypto
import Foundation
import Testing
@_spi(CMS) import X509

/// The local check of an app receipt's PKCS #7 signature, against receipts the simulator signs with RSA chains shaped
/// like Apple's (SHA-1 and SHA-256), receipts signed by other chains, and receipts changed after signing.
@Suite struct AppReceiptVerifierTests {
    static let receipt = AppReceipt(
        bundleId: "com.example.app", applicationVersion: "42", originalApplicationVersion: "1.0",
        creationDate: TestChain.reference, environment: "ProductionSandbox",
        inAppPurchases: [
            InAppPurchaseReceipt(
                productId: "com.example.gold60", transactionId: "2000000000000001",
                purchaseDate: TestChain.reference),
            InAppPurchaseReceipt(productId: "com.example.gold120", transactionId: "2000000000000002"),
        ])

    static func verifier(_ roots: [Certificate]) -> AppReceiptVerifier {
        AppReceiptVerifier(configuration: .init(trustedRoots: roots), now: { TestChain.reference })
    }

    static func sign(_ receipt: AppReceipt = receipt, by authority: ReceiptCertificateAuthority) throws -> [UInt8] {
        try AppReceiptIssuer(authority: authority).issue(receipt, signingTime: TestChain.reference)
    }

    /// The error `verify` throws, or `nil` when it accepts.
    static func failure(_ der: [UInt8], trusting roots: [Certificate]) async -> VerificationError.Code? {
        do {
            _ = try await verifier(roots).verify(der: der)
            return nil
        } catch {
            return error.code
        }
    }

    @Test func appleIncRootIsEmbeddedWithItsPublishedFingerprint() throws {
        let fingerprint = SHA256.hash(data: AppleRootCertificates.appleIncRootDER).map { String(format: "%02X", $0) }
        #expect(fingerprint.prefix(4).joined() == "B0B1730E")
        #expect(fingerprint.suffix(4).joined() == "1001F024")
        let root = AppleRootCertificates.appleIncRoot
        #expect(root.subject.description.contains("CN=Apple Root CA"))
        #expect(root.subject == root.issuer)
    }

    @Test(arguments: [ReceiptCertificateAuthority.Digest.sha1, .sha256])
    func acceptsWhatTheSimulatorSignsWithEitherDigest(_ digest: ReceiptCertificateAuthority.Digest) async throws {
        let authority = digest == .sha1 ? TestChain.receiptSHA1 : TestChain.receiptSHA256
        #expect(
            authority.leaf.signatureAlgorithm == (digest == .sha1 ? .sha1WithRSAEncryption : .sha256WithRSAEncryption))
        let der = try Self.sign(by: authority)
        let verified = try await Self.verifier([AppleRootCertificates.appleIncRoot, authority.root]).verify(der: der)
        #expect(verified == (try AppReceiptParser.parse(der: der)))
        #expect(verified.inAppPurchases.map(\.productId) == ["com.example.gold60", "com.example.gold120"])
        let base64 = Data(der).base64EncodedString(options: .lineLength64Characters)
        #expect(try await Self.verifier([authority.root]).verify(base64: base64) == verified)
    }

    @Test func refusesAReceiptSignedByAnotherChain() async throws {
        let der = try Self.sign(by: TestChain.receiptForeign)
        #expect(await Self.failure(der, trusting: [TestChain.receiptSHA256.root]) == .untrustedChain)
        #expect(await Self.failure(der, trusting: [AppleRootCertificates.appleIncRoot]) == .untrustedChain)
        #expect(await Self.failure(der, trusting: [TestChain.receiptForeign.root]) == nil)
    }

    @Test func refusesAReceiptWhoseContentChangedByOneByte() async throws {
        let der = try Self.sign(by: TestChain.receiptSHA256)
        let at = try Self.offset(of: "gold120", in: der)
        var tampered = der
        tampered[at + 6] = UInt8(ascii: "1")  // gold121: still a well-formed receipt
        #expect(try AppReceiptParser.parse(der: tampered).inAppPurchases[1].productId == "com.example.gold121")
        #expect(await Self.failure(tampered, trusting: [TestChain.receiptSHA256.root]) == .badSignature)

        var badSignature = der
        badSignature[der.count - 10] ^= 0x01  // the signature is the file's last element
        #expect(await Self.failure(badSignature, trusting: [TestChain.receiptSHA256.root]) == .badSignature)
    }

    @Test func refusesAChainWithoutApplesMarkerOrOutsideItsValidity() async throws {
        let unmarked = try Self.sign(by: TestChain.receiptUnmarked)
        #expect(await Self.failure(unmarked, trusting: [TestChain.receiptUnmarked.root]) == .missingAppleOID)

        // The chain is checked at the receipt's creation date, not now: 2030 is outside its five years.
        var late = Self.receipt
        late.creationDate = Date(timeIntervalSince1970: 1_900_000_000)
        let lateDER = try Self.sign(late, by: TestChain.receiptSHA256)
        #expect(await Self.failure(lateDER, trusting: [TestChain.receiptSHA256.root]) == .expired)

        // A warm cache still checks each receipt's own date.
        let verifier = Self.verifier([TestChain.receiptSHA256.root])
        _ = try await verifier.verify(der: try Self.sign(by: TestChain.receiptSHA256))
        await #expect(throws: VerificationError(.expired, "")) { try await verifier.verify(der: lateDER) }
    }

    @Test func acceptsSignedAttributesAndChecksTheirDigest() async throws {
        // swift-certificates' CMS signer writes signed attributes (content type, message digest, signing time).
        let authority = TestChain.receiptSHA256
        let der = try CMS.sign(
            AppReceiptEncoder.payload(Self.receipt), signatureAlgorithm: .sha256WithRSAEncryption,
            additionalIntermediateCertificates: [authority.intermediate, authority.root],
            certificate: authority.leaf, privateKey: .init(authority.leafKey), signingTime: TestChain.reference,
            detached: false)
        let verified = try await Self.verifier([authority.root]).verify(der: der)
        #expect(verified.inAppPurchases.map(\.transactionId) == ["2000000000000001", "2000000000000002"])

        // One byte of the content changed: the signed attributes still verify, their message digest does not match.
        var tampered = der
        tampered[try Self.offset(of: "gold120", in: der) + 6] = UInt8(ascii: "1")
        #expect(await Self.failure(tampered, trusting: [authority.root]) == .badSignature)
    }

    @Test func refusesWhatIsNotASignedReceipt() async throws {
        #expect(await Self.failure([], trusting: [TestChain.receiptSHA256.root]) == .malformed)
        let der = try Self.sign(by: TestChain.receiptSHA256)
        #expect(
            await Self.failure(Array(der.prefix(der.count / 2)), trusting: [TestChain.receiptSHA256.root]) == .malformed
        )
    }

    /// Where `text` first occurs in `der`.
    static func offset(of text: String, in der: [UInt8]) throws -> Int {
        let bytes = Array(text.utf8)
        return try #require((0...(der.count - bytes.count)).first { der[$0..<($0 + bytes.count)].elementsEqual(bytes) })
    }
}
