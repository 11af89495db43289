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

    /// The compact JWS `sign` made of `payload` when its signature segment was `signature`: the same bytes again,
    /// without signing (the payload's JSON has sorted keys).
    public func assemble(_ payload: some Encodable, signature: String) throws -> String {
        try Self.signingInput(payload, headerSegment: headerSegment) + "." + signature
    }

    /// The base64url header `{"alg":"ES256","x5c":[…]}` naming `x5c` (standard base64 DER, leaf first).
    static func headerSegment(x5c: [Certificate]) -> String {
        let chain = x5c.map { "\"" + Data(SimulatorCertificateAuthority.der($0)).base64EncodedString() + "\"" }
        return Base64URL.encode(Data((#"{"alg":"ES256","x5c":["# + chain.joined(separator: ",") + "]}").utf8))
    }

    /// `headerSegment.payload.signature`: the payload as sorted-key JSON, signed ES256 by `key` (raw r‖s).
    static func sign(_ payload: some Encodable, headerSegment: String, key: P256.Signing.PrivateKey) throws -> String {
        let signingInput = try signingInput(payload, headerSegment: headerSegment)
        let signature = try key.signature(for: Data(signingInput.utf8))
        return signingInput + "." + Base64URL.encode(signature.rawRepresentation)
    }

    /// `headerSegment.payload`, the payload as sorted-key JSON.
    private static func signingInput(_ payload: some Encodable, headerSegment: String) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return headerSegment + "." + Base64URL.encode(try encoder.encode(payload))
    }
}
