import AppStoreVerification
import Crypto
import Foundation
import SwiftASN1
import X509
import _CryptoExtras

/// Issues app receipts as the App Store does: the payload in a PKCS #7 SignedData with the content attached, signed
/// by the receipt chain's leaf with `rsaEncryption` over a SHA-1 or SHA-256 digest of the content (no signed
/// attributes), carrying the leaf, the intermediate and the root.
public struct AppReceiptIssuer: Sendable {
    public let authority: ReceiptCertificateAuthority
    private let verifier: AppReceiptVerifier

    public init(authority: ReceiptCertificateAuthority) {
        self.authority = authority
        self.verifier = AppReceiptVerifier(configuration: .init(trustedRoots: [authority.root]))
    }

    /// The DER receipt for `receipt`. `signingTime` is kept for callers; the receipt's own creation date is what a
    /// verifier checks the chain at.
    public func issue(_ receipt: AppReceipt, signingTime: Date) throws -> [UInt8] {
        try Self.signedData(content: AppReceiptEncoder.payload(receipt), authority: authority)
    }

    /// Whether `der` is a receipt this simulator signed (signature and chain to its root, at the receipt's creation).
    public func isAuthentic(_ der: [UInt8], at time: Date) async -> Bool {
        (try? await verifier.verify(der: der)) != nil
    }

    /// 1.2.840.113549.1.7.2, 1.2.840.113549.1.7.1, 1.2.840.113549.1.1.1, 1.3.14.3.2.26, 2.16.840.1.101.3.4.2.1.
    private static let signedDataOID: [UInt8] = [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x02]
    private static let dataOID: [UInt8] = [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x01]
    private static let rsaEncryptionOID: [UInt8] = [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x01]
    private static let sha1OID: [UInt8] = [0x2B, 0x0E, 0x03, 0x02, 0x1A]
    private static let sha256OID: [UInt8] = [0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x01]

    /// `ContentInfo { signedData, [0] SignedData { 1, {digest}, {data, [0] content}, [0] certificates, {signer} } }`.
    static func signedData(content: [UInt8], authority: ReceiptCertificateAuthority) throws -> [UInt8] {
        let digestOID = authority.digest == .sha1 ? sha1OID : sha256OID
        let signature: _RSA.Signing.RSASignature
        switch authority.digest {
        case .sha1:
            signature = try authority.leafKey.signature(
                for: Insecure.SHA1.hash(data: content), padding: .insecurePKCS1v1_5)
        case .sha256:
            signature = try authority.leafKey.signature(for: SHA256.hash(data: content), padding: .insecurePKCS1v1_5)
        }
        var issuer = DER.Serializer()
        try issuer.serialize(authority.leaf.issuer)
        var serial = DER.Serializer()
        try serial.serialize(authority.leaf.serialNumber.bytes)
        let certificates = [authority.leaf, authority.intermediate, authority.root].flatMap(
            SimulatorCertificateAuthority.der)
        func algorithm(_ oid: [UInt8]) -> (inout DERWriter) -> Void {
            {
                $0.constructed(0x30) {
                    $0.tlv(0x06, oid)
                    $0.tlv(0x05, [])
                }
            }
        }
        return DERWriter.build { info in
            info.constructed(0x30) { info in
                info.tlv(0x06, signedDataOID)
                info.constructed(0xA0) { explicit in
                    explicit.constructed(0x30) { signed in
                        signed.integer(1)
                        signed.constructed(0x31, algorithm(digestOID))
                        signed.constructed(0x30) { encap in
                            encap.tlv(0x06, dataOID)
                            encap.constructed(0xA0) { $0.octetString(content) }
                        }
                        signed.tlv(0xA0, certificates)
                        signed.constructed(0x31) { signers in
                            signers.constructed(0x30) { signer in
                                signer.integer(1)
                                signer.constructed(0x30) { sid in
                                    sid.raw(issuer.serializedBytes)
                                    sid.raw(serial.serializedBytes)
                                }
                                algorithm(digestOID)(&signer)
                                algorithm(rsaEncryptionOID)(&signer)
                                signer.octetString(Array(signature.rawRepresentation))
                            }
                        }
                    }
                }
            }
        }
    }
}
