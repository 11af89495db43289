import AppStoreVerification
import Crypto
import Foundation
import SwiftASN1
import X509
import _CryptoExtras

/// The simulator's RSA chain for StoreKit 1 app receipts, shaped like Apple's: a root, a Worldwide Developer
/// Relations–like intermediate (Apple's OID 1.2.840.113635.100.6.2.1) and a receipt-signing leaf (OID
/// 1.2.840.113635.100.6.11.1), RSA-2048, every certificate signed with SHA-1 or SHA-256 (Apple's older and newer
/// chains), and the receipts signed with the same digest. Never trusted in production.
public struct ReceiptCertificateAuthority: Sendable {
    /// The digest of the chain's signatures and of the receipts' signatures.
    public enum Digest: String, Sendable, CaseIterable {
        case sha1
        case sha256

        var certificateAlgorithm: Certificate.SignatureAlgorithm {
            self == .sha1 ? .sha1WithRSAEncryption : .sha256WithRSAEncryption
        }
    }

    public let root: Certificate
    public let intermediate: Certificate
    public let leaf: Certificate
    /// The key that signs receipts.
    public let leafKey: _RSA.Signing.PrivateKey
    public let digest: Digest

    public init(
        root: Certificate, intermediate: Certificate, leaf: Certificate, leafKey: _RSA.Signing.PrivateKey,
        digest: Digest
    ) {
        self.root = root
        self.intermediate = intermediate
        self.leaf = leaf
        self.leafKey = leafKey
        self.digest = digest
    }

    /// A chain made once per process, valid from 2000 to 2100, for simulators that keep nothing on disk (tests,
    /// chaos runs): RSA keys take a moment to generate.
    public static let ephemeral: ReceiptCertificateAuthority = {
        let validity = SimulatorCertificateAuthority.Validity(
            notBefore: Date(timeIntervalSince1970: 946_684_800),
            rootNotAfter: Date(timeIntervalSince1970: 4_102_444_800),
            intermediateNotAfter: Date(timeIntervalSince1970: 4_102_444_800),
            leafNotAfter: Date(timeIntervalSince1970: 4_102_444_800))
        // Generating a chain from fresh keys only fails on a defect in swift-certificates or swift-crypto.
        return try! generate(validity: validity)
    }()

    /// A new chain with fresh RSA-2048 keys.
    public static func generate(
        validity: SimulatorCertificateAuthority.Validity, digest: Digest = .sha256,
        name: String = "Purser App Store Simulator", defects: SimulatorCertificateAuthority.Defects = .init()
    ) throws -> ReceiptCertificateAuthority {
        let keys = try (0..<3).map { _ in try _RSA.Signing.PrivateKey(keySize: .bits2048) }
        let names = try ["Receipt Root CA", "Worldwide Developer Relations Receipt CA", "Receipt Signing"].map {
            title in
            try DistinguishedName {
                CommonName("\(name) \(title)")
                OrganizationName("Purser (simulated, not Apple)")
                CountryName("US")
            }
        }
        let publicKeys = keys.map { Certificate.PublicKey($0.publicKey) }
        let marker: [UInt8] = [0x05, 0x00]  // DER NULL, as Apple's marker extensions carry
        let algorithm = digest.certificateAlgorithm
        let root = try Certificate(
            version: .v3, serialNumber: .init(), publicKey: publicKeys[0],
            notValidBefore: validity.notBefore, notValidAfter: validity.rootNotAfter,
            issuer: names[0], subject: names[0], signatureAlgorithm: algorithm,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
                Critical(KeyUsage(keyCertSign: true, cRLSign: true))
                SubjectKeyIdentifier(hash: publicKeys[0])
            },
            issuerPrivateKey: .init(keys[0]))
        let intermediate = try Certificate(
            version: .v3, serialNumber: .init(), publicKey: publicKeys[1],
            notValidBefore: validity.notBefore, notValidAfter: validity.intermediateNotAfter,
            issuer: names[0], subject: names[1], signatureAlgorithm: algorithm,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
                Critical(KeyUsage(keyCertSign: true, cRLSign: true))
                SubjectKeyIdentifier(hash: publicKeys[1])
                AuthorityKeyIdentifier(keyIdentifier: SubjectKeyIdentifier(hash: publicKeys[0]).keyIdentifier)
                if !defects.omitIntermediateMarker {
                    Certificate.Extension(oid: AppleChainPolicy.intermediateMarker, critical: false, value: marker[...])
                }
            },
            issuerPrivateKey: .init(keys[0]))
        let leaf = try Certificate(
            version: .v3, serialNumber: .init(), publicKey: publicKeys[2],
            notValidBefore: validity.notBefore, notValidAfter: validity.leafNotAfter,
            issuer: names[1], subject: names[2], signatureAlgorithm: algorithm,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.notCertificateAuthority)
                Critical(KeyUsage(digitalSignature: true))
                SubjectKeyIdentifier(hash: publicKeys[2])
                AuthorityKeyIdentifier(keyIdentifier: SubjectKeyIdentifier(hash: publicKeys[1]).keyIdentifier)
                if !defects.omitLeafMarker {
                    Certificate.Extension(oid: AppleChainPolicy.leafMarker, critical: false, value: marker[...])
                }
            },
            issuerPrivateKey: .init(keys[1]))
        return ReceiptCertificateAuthority(
            root: root, intermediate: intermediate, leaf: leaf, leafKey: keys[2], digest: digest)
    }

    /// The root as DER, to hand to whoever should trust this simulator's receipts (`purser receipt --verify --root`).
    public var rootDER: [UInt8] { SimulatorCertificateAuthority.der(root) }
}
