import Crypto
import Foundation
import SwiftASN1
@_spi(FixedExpiryValidationTime) import X509

/// Checks a StoreKit 1 app receipt's signature locally, without `verifyReceipt`: the PKCS #7 signer's chain (carried
/// in the receipt) must lead to a trusted root under `AppleChainPolicy` (leaf, Apple Worldwide Developer Relations
/// intermediate, root, with Apple's two OIDs) with every certificate valid at the receipt's creation date, and the
/// RSA signature (SHA-1 or SHA-256, see `ReceiptSignedData`) must cover the content. Then the content is decoded.
///
/// The chain is checked with swift-certificates' `Verifier` once per distinct chain and remembered (keyed by the
/// exact certificate bytes and signer identifier), so a warm check costs one RSA verification and a digest; this is
/// also why it does not call `CMS.isValidAttachedSignature`, which re-parses and re-validates the whole chain (three
/// RSA verifications) for every receipt and does not accept the `rsaEncryption` signature algorithm that Apple's
/// receipts carry.
public struct AppReceiptVerifier: Sendable {
    public struct Configuration: Sendable {
        /// Trust anchors: Apple Inc.'s RSA root by default; add the simulator's receipt root only outside production.
        public var trustedRoots: [Certificate]
        /// How many verified chains to remember.
        public var chainCacheCapacity: Int

        public init(trustedRoots: [Certificate] = [AppleRootCertificates.appleIncRoot], chainCacheCapacity: Int = 16) {
            self.trustedRoots = trustedRoots
            self.chainCacheCapacity = chainCacheCapacity
        }
    }

    public let configuration: Configuration
    private let roots: CertificateStore
    private let cache: ReceiptChainCache
    private let now: @Sendable () -> Date

    /// - Parameter now: the clock used for a receipt without a creation date.
    public init(configuration: Configuration = .init(), now: @escaping @Sendable () -> Date = { Date() }) {
        self.configuration = configuration
        self.roots = CertificateStore(configuration.trustedRoots)
        self.cache = ReceiptChainCache(capacity: configuration.chainCacheCapacity)
        self.now = now
    }

    /// Checks the signature of a receipt file's bytes (DER or BER) and decodes its content. A receipt that does not
    /// decode is `malformed` (the message names the receipt's own failure code).
    public func verify(der: [UInt8]) async throws(VerificationError) -> AppReceipt {
        let signed: ReceiptSignedData
        let receipt: AppReceipt
        do {
            signed = try ReceiptSignedData(der: der)
            receipt = try AppReceiptParser.parse(der: der)
        } catch {
            throw VerificationError(.malformed, "the receipt does not decode (\(error.code)): \(error.message)")
        }
        try await checkSignature(signed, at: receipt.creationDate ?? now())
        return receipt
    }

    /// Like `verify(der:)`, for standard base64 (whitespace ignored).
    public func verify(base64: String) async throws(VerificationError) -> AppReceipt {
        let der: [UInt8]
        do { der = try AppReceiptParser.decodeBase64(base64.utf8) } catch {
            throw VerificationError(.malformed, "the receipt is not base64 (\(error.code))")
        }
        return try await verify(der: der)
    }

    /// The signer's chain at `date` and the signature over the content; the content is not decoded.
    func checkSignature(_ signed: ReceiptSignedData, at date: Date) async throws(VerificationError) {
        let chain = try await trustedChain(for: signed, at: date)
        guard date >= chain.validFrom, date <= chain.validUntil else {
            throw VerificationError(.expired, "the certificate chain was not valid at the receipt's creation \(date)")
        }
        if let messageDigest = signed.messageDigest {
            guard messageDigest == Self.digest(signed.content, signed.digest) else {
                throw VerificationError(.badSignature, "the signed message digest does not match the receipt")
            }
        }
        let algorithm: Certificate.SignatureAlgorithm =
            signed.digest == .sha1 ? .sha1WithRSAEncryption : .sha256WithRSAEncryption
        guard chain.leafKey.isValidSignature(signed.signature, for: signed.signedBytes, signatureAlgorithm: algorithm)
        else {
            throw VerificationError(.badSignature, "the signature does not match the receipt's content")
        }
    }

    static func digest(_ bytes: [UInt8], _ digest: ReceiptSignedData.Digest) -> [UInt8] {
        switch digest {
        case .sha1: Array(Insecure.SHA1.hash(data: bytes))
        case .sha256: Array(SHA256.hash(data: bytes))
        }
    }

    /// The cached chain for these certificates and signer, or a full verification of it at `date` on a miss.
    private func trustedChain(
        for signed: ReceiptSignedData, at date: Date
    ) async throws(VerificationError) -> ReceiptChainCache.Entry {
        let key = ReceiptChainKey(certificates: Data(signed.certificatesField), signer: Data(signed.signer))
        if let cached = cache.entry(for: key) { return cached }
        var certificates: [Certificate] = []
        for (index, der) in signed.certificates.enumerated() {
            guard let certificate = try? Certificate(derEncoded: Array(der)) else {
                throw VerificationError(.malformed, "certificate \(index) of the receipt is not DER")
            }
            certificates.append(certificate)
        }
        guard let leaf = try Self.signer(signed.signer, among: certificates) else {
            throw VerificationError(.untrustedChain, "the receipt does not carry its signer's certificate")
        }
        let others = certificates.filter { $0 != leaf }
        guard let intermediate = others.first(where: { $0.subject == leaf.issuer }) else {
            throw VerificationError(.untrustedChain, "the receipt does not carry its signer's issuer")
        }
        if let missing = AppleChainPolicy.missingMarker(leaf: leaf, intermediate: intermediate) {
            throw VerificationError(.missingAppleOID, missing)
        }
        for (name, certificate) in [("leaf", leaf), ("intermediate", intermediate)]
        where date < certificate.notValidBefore || date > certificate.notValidAfter {
            throw VerificationError(.expired, "the \(name) certificate was not valid at the receipt's creation \(date)")
        }
        var verifier = Verifier(rootCertificates: roots) {
            RFC5280Policy(fixedExpiryValidationTime: date)
            AppleChainPolicy()
        }
        let result = await verifier.validate(leaf: leaf, intermediates: CertificateStore(others))
        guard case .validCertificate(let chain) = result else {
            throw VerificationError(.untrustedChain, "the receipt's chain does not lead to a trusted root")
        }
        let entry = ReceiptChainCache.Entry(
            leafKey: leaf.publicKey,
            validFrom: chain.map(\.notValidBefore).max() ?? date,
            validUntil: chain.map(\.notValidAfter).min() ?? date)
        cache.insert(entry, for: key)
        return entry
    }

    /// The certificate the signer identifier names: `IssuerAndSerialNumber` or `[0] SubjectKeyIdentifier`.
    private static func signer(_ identifier: [UInt8], among certificates: [Certificate]) throws(VerificationError)
        -> Certificate?
    {
        do {
            let node = try DER.parse(identifier)
            if node.identifier.tagClass == .contextSpecific {
                guard case .primitive(let keyID) = node.content else { return nil }
                return certificates.first { (try? $0.extensions.subjectKeyIdentifier)??.keyIdentifier == keyID }
            }
            let (issuer, serial) = try DER.sequence(node, identifier: .sequence) { nodes in
                guard let name = nodes.next() else { throw ASN1Error.invalidASN1Object(reason: "no issuer") }
                return (try DistinguishedName(derEncoded: name), try ArraySlice<UInt8>(derEncoded: &nodes))
            }
            let number = Certificate.SerialNumber(bytes: serial)
            return certificates.first { $0.issuer == issuer && $0.serialNumber == number }
        } catch {
            throw VerificationError(.malformed, "the receipt's signer identifier does not decode")
        }
    }
}

/// A receipt's certificates and signer identifier, byte for byte (`Data` hashes a prefix and compares in full, which
/// keeps a warm lookup cheap).
struct ReceiptChainKey: Hashable, Sendable {
    var certificates: Data
    var signer: Data
}

/// Verified receipt chains.
typealias ReceiptChainCache = ChainCache<ReceiptChainKey, Certificate.PublicKey>
