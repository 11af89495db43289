import AppStoreVerification
import Foundation
@_spi(CMS) @_spi(FixedExpiryValidationTime) import X509

/// Issues app receipts as StoreKit 1 hands them to apps: the payload in a PKCS#7 (CMS) SignedData with the content
/// attached, signed by the simulator's leaf and carrying its certificates.
public struct AppReceiptIssuer: Sendable {
    public let authority: SimulatorCertificateAuthority

    public init(authority: SimulatorCertificateAuthority) {
        self.authority = authority
    }

    /// The DER receipt for `receipt`.
    public func issue(_ receipt: AppReceipt, signingTime: Date) throws -> [UInt8] {
        try CMS.sign(
            AppReceiptEncoder.payload(receipt), additionalIntermediateCertificates: [authority.intermediate],
            certificate: authority.leaf, privateKey: .init(authority.leafKey), signingTime: signingTime,
            detached: false)
    }

    /// Whether `der` is a receipt this simulator signed (signature and chain to its root).
    public func isAuthentic(_ der: [UInt8], at time: Date) async -> Bool {
        let result = await CMS.isValidAttachedSignature(
            signatureBytes: der, trustRoots: CertificateStore([authority.root])
        ) {
            RFC5280Policy(fixedExpiryValidationTime: time)
        }
        if case .success = result { return true }
        return false
    }
}
