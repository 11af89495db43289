import AppStoreVerification
import Crypto
import Foundation
import X509

/// Signs as Xcode's StoreKit testing does on a Mac: one self-signed P-256 certificate (the one Xcode exports with
/// Editor > Save Public Certificate) as the whole `x5c`, ES256, no Apple markers. For tests of the server's
/// `xcode.certificateFile` option without a Mac; what it signs should say environment `Xcode`.
public struct XcodeTestingSigner: Sendable {
    public let certificate: Certificate
    private let key: P256.Signing.PrivateKey

    /// A fresh key and certificate, valid a year either side of `now`.
    public init(now: Date = Date()) throws {
        key = P256.Signing.PrivateKey()
        let name = try DistinguishedName { CommonName("StoreKit Testing in Xcode (simulated by Purser)") }
        let publicKey = Certificate.PublicKey(key.publicKey)
        certificate = try Certificate(
            version: .v3, serialNumber: .init(), publicKey: publicKey,
            notValidBefore: now.addingTimeInterval(-365 * 86_400), notValidAfter: now.addingTimeInterval(365 * 86_400),
            issuer: name, subject: name, signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
                Critical(KeyUsage(digitalSignature: true, keyCertSign: true))
                SubjectKeyIdentifier(hash: publicKey)
            },
            issuerPrivateKey: .init(key))
    }

    /// The certificate as DER: the `.cer` file Xcode saves.
    public var certificateDER: [UInt8] { SimulatorCertificateAuthority.der(certificate) }

    /// The compact JWS of `payload`, its header `{"alg":"ES256","x5c":[certificate]}`.
    public func sign(_ payload: some Encodable) throws -> String {
        try JWSSigner.sign(payload, headerSegment: JWSSigner.headerSegment(x5c: [certificate]), key: key)
    }
}
