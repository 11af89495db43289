import Foundation
import SwiftASN1
import X509

/// Apple's rules for the certificate chain of a signed App Store payload, as a `VerifierPolicy`: exactly a leaf,
/// an intermediate and a trusted root, the leaf marked with OID 1.2.840.113635.100.6.11.1 and the intermediate with
/// 1.2.840.113635.100.6.2.1.
public struct AppleChainPolicy: VerifierPolicy {
    /// Apple's marker on the leaf that signs App Store receipts and transactions.
    public static let leafMarker: ASN1ObjectIdentifier = [1, 2, 840, 113635, 100, 6, 11, 1]
    /// Apple's marker on the Apple Worldwide Developer Relations intermediate.
    public static let intermediateMarker: ASN1ObjectIdentifier = [1, 2, 840, 113635, 100, 6, 2, 1]

    public let verifyingCriticalExtensions: [ASN1ObjectIdentifier] = [leafMarker, intermediateMarker]

    public init() {}

    public mutating func chainMeetsPolicyRequirements(chain: UnverifiedCertificateChain) async -> PolicyEvaluationResult
    {
        guard chain.count == 3 else {
            return .failsToMeetPolicy(
                reason: "Apple's chains are leaf, intermediate, root; this one has \(chain.count)")
        }
        if let missing = Self.missingMarker(leaf: chain[0], intermediate: chain[1]) {
            return .failsToMeetPolicy(reason: missing)
        }
        return .meetsPolicy
    }

    /// Which Apple marker is missing, if any. Checked before path building too, so that the failure has its own code.
    static func missingMarker(leaf: Certificate, intermediate: Certificate) -> String? {
        if leaf.extensions[oid: leafMarker] == nil {
            return "the leaf certificate lacks Apple's OID \(leafMarker)"
        }
        if intermediate.extensions[oid: intermediateMarker] == nil {
            return "the intermediate certificate lacks Apple's OID \(intermediateMarker)"
        }
        return nil
    }
}
