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
        self.headerSegment = Self.headerSegment(x5c: [authority.leaf, authority.intermediate, authority.root])
    }

    /// The compact JWS of `payload`.
    public func sign(_ payload: some Encodable) throws -> String {
        try Self.sign(payload, headerSegment: headerSegment, key: authority.leafKey)
    }

    /// The base64url header `{"alg":"ES256","x5c":[…]}` naming `x5c` (standard base64 DER, leaf first).
    static func headerSegment(x5c: [Certificate]) -> String {
        let chain = x5c.map { "\"" + Data(SimulatorCertificateAuthority.der($0)).base64EncodedString() + "\"" }
        return Base64URL.encode(Data((#"{"alg":"ES256","x5c":["# + chain.joined(separator: ",") + "]}").utf8))
    }

    /// `headerSegment.payload.signature`: the payload as sorted-key JSON, signed ES256 by `key` (raw r‖s).
    static func sign(_ payload: some Encodable, headerSegment: String, key: P256.Signing.PrivateKey) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let signingInput = headerSegment + "." + Base64URL.encode(try encoder.encode(payload))
        let signature = try key.signature(for: Data(signingInput.utf8))
        return signingInput + "." + Base64URL.encode(signature.rawRepresentation)
    }
}
