import AppStoreVerification
import Crypto
import Foundation
import X509

/// Signs payloads as the App Store does: a compact JWS with header `{"alg":"ES256","x5c":[leaf, intermediate,
/// root]}` (standard base64 DER) and a raw r‖s ES256 signature.
public struct JWSSigner: Sendable {
    public let authority: SimulatorCertificateAuthority
    private let headerSegment: String

    public init(authority: SimulatorCertificateAuthority) {
        self.authority = authority
        let x5c = [authority.leaf, authority.intermediate, authority.root].map {
            Data(SimulatorCertificateAuthority.der($0)).base64EncodedString()
        }
        let header = #"{"alg":"ES256","x5c":["# + x5c.map { "\"\($0)\"" }.joined(separator: ",") + "]}"
        self.headerSegment = Base64URL.encode(Data(header.utf8))
    }

    /// The compact JWS of `payload`.
    public func sign(_ payload: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let body = Base64URL.encode(try encoder.encode(payload))
        let signingInput = headerSegment + "." + body
        let signature = try authority.leafKey.signature(for: Data(signingInput.utf8))
        return signingInput + "." + Base64URL.encode(signature.rawRepresentation)
    }
}
