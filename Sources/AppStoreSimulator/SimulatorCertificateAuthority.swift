import AppStoreVerification
import Crypto
import Foundation
import SwiftASN1
import X509

/// The simulator's certificate authority: root → intermediate → leaf, shaped like Apple's (the two Apple OIDs,
/// subject and authority key identifiers, CA key usage), so that Apple's own libraries accept what it signs.
/// Created on first start and kept in a directory; never trusted in production.
public struct SimulatorCertificateAuthority: Sendable {
    public let root: Certificate
    public let intermediate: Certificate
    public let leaf: Certificate
    /// The key that signs transactions and notifications.
    public let leafKey: P256.Signing.PrivateKey

    /// Validity periods of a newly generated chain, relative to its creation time.
    public struct Validity: Sendable {
        public var notBefore: Date
        public var rootNotAfter: Date
        public var intermediateNotAfter: Date
        public var leafNotAfter: Date

        /// Root 20 years, intermediate 10, leaf 5; valid from a day before `now` (Apple's libraries check the
        /// chain at `signedDate`, so the start is backdated).
        public static func standard(now: Date) -> Validity {
            let day: TimeInterval = 86_400
            return Validity(
                notBefore: now - day, rootNotAfter: now + 20 * 365 * day,
                intermediateNotAfter: now + 10 * 365 * day, leafNotAfter: now + 5 * 365 * day)
        }

        public init(notBefore: Date, rootNotAfter: Date, intermediateNotAfter: Date, leafNotAfter: Date) {
            self.notBefore = notBefore
            self.rootNotAfter = rootNotAfter
            self.intermediateNotAfter = intermediateNotAfter
            self.leafNotAfter = leafNotAfter
        }
    }

    /// Options that produce deliberately defective chains, for tests of the verifier.
    public struct Defects: Sendable {
        public var omitLeafMarker = false
        public var omitIntermediateMarker = false
        public init(omitLeafMarker: Bool = false, omitIntermediateMarker: Bool = false) {
            self.omitLeafMarker = omitLeafMarker
            self.omitIntermediateMarker = omitIntermediateMarker
        }
    }

    public init(root: Certificate, intermediate: Certificate, leaf: Certificate, leafKey: P256.Signing.PrivateKey) {
        self.root = root
        self.intermediate = intermediate
        self.leaf = leaf
        self.leafKey = leafKey
    }

    /// A new chain with fresh keys.
    public static func generate(
        validity: Validity, name: String = "Purser App Store Simulator", defects: Defects = .init()
    ) throws -> SimulatorCertificateAuthority {
        let rootKey = P256.Signing.PrivateKey()
        let intermediateKey = P256.Signing.PrivateKey()
        let leafKey = P256.Signing.PrivateKey()
        let rootName = try DistinguishedName {
            CommonName("\(name) Root CA")
            OrganizationName("Purser (simulated, not Apple)")
            CountryName("US")
        }
        let intermediateName = try DistinguishedName {
            CommonName("\(name) Worldwide Developer Relations CA")
            OrganizationName("Purser (simulated, not Apple)")
            CountryName("US")
        }
        let leafName = try DistinguishedName {
            CommonName("\(name) Store Signing")
            OrganizationName("Purser (simulated, not Apple)")
            CountryName("US")
        }
        let rootPublic = Certificate.PublicKey(rootKey.publicKey)
        let intermediatePublic = Certificate.PublicKey(intermediateKey.publicKey)
        let leafPublic = Certificate.PublicKey(leafKey.publicKey)
        let marker: [UInt8] = [0x05, 0x00]  // DER NULL, as Apple's marker extensions carry

        let root = try Certificate(
            version: .v3, serialNumber: .init(), publicKey: rootPublic,
            notValidBefore: validity.notBefore, notValidAfter: validity.rootNotAfter,
            issuer: rootName, subject: rootName, signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
                Critical(KeyUsage(keyCertSign: true, cRLSign: true))
                SubjectKeyIdentifier(hash: rootPublic)
            },
            issuerPrivateKey: .init(rootKey)
        )
        let intermediate = try Certificate(
            version: .v3, serialNumber: .init(), publicKey: intermediatePublic,
            notValidBefore: validity.notBefore, notValidAfter: validity.intermediateNotAfter,
            issuer: rootName, subject: intermediateName, signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
                Critical(KeyUsage(keyCertSign: true, cRLSign: true))
                SubjectKeyIdentifier(hash: intermediatePublic)
                AuthorityKeyIdentifier(keyIdentifier: SubjectKeyIdentifier(hash: rootPublic).keyIdentifier)
                if !defects.omitIntermediateMarker {
                    Certificate.Extension(oid: AppleChainPolicy.intermediateMarker, critical: false, value: marker[...])
                }
            },
            issuerPrivateKey: .init(rootKey)
        )
        let leaf = try Certificate(
            version: .v3, serialNumber: .init(), publicKey: leafPublic,
            notValidBefore: validity.notBefore, notValidAfter: validity.leafNotAfter,
            issuer: intermediateName, subject: leafName, signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.notCertificateAuthority)
                Critical(KeyUsage(digitalSignature: true))
                SubjectKeyIdentifier(hash: leafPublic)
                AuthorityKeyIdentifier(keyIdentifier: SubjectKeyIdentifier(hash: intermediatePublic).keyIdentifier)
                if !defects.omitLeafMarker {
                    Certificate.Extension(oid: AppleChainPolicy.leafMarker, critical: false, value: marker[...])
                }
            },
            issuerPrivateKey: .init(intermediateKey)
        )
        return SimulatorCertificateAuthority(root: root, intermediate: intermediate, leaf: leaf, leafKey: leafKey)
    }

    /// A certificate's DER bytes.
    public static func der(_ certificate: Certificate) -> [UInt8] {
        var serializer = DER.Serializer()
        // Serializing a certificate we hold in memory cannot fail short of a defect in swift-certificates.
        try! serializer.serialize(certificate)
        return serializer.serializedBytes
    }

    /// The root as DER, to hand to whoever should trust this simulator (`purser verify --root`, Apple's libraries).
    public var rootDER: [UInt8] { Self.der(root) }
}
