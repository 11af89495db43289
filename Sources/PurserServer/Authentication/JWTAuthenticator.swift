import AppStoreVerification
import Crypto
import Foundation
import Hummingbird
import PurserCore
import _CryptoExtras

/// Verifies `Authorization: Bearer <JWT>` issued by the game's own login service. The user is the `sub` claim.
/// `exp` is required; `nbf`, `iss` and `aud` are checked when present or configured. The header's `alg` must be
/// the configured one, so a token cannot pick a weaker algorithm.
public struct JWTAuthenticator: Authenticator {
    public enum Key: Sendable {
        case hs256(secret: [UInt8])
        case es256(P256.Signing.PublicKey)
        case rs256(_RSA.Signing.PublicKey)

        var algorithm: String {
            switch self {
            case .hs256: "HS256"
            case .es256: "ES256"
            case .rs256: "RS256"
            }
        }
    }

    public var key: Key
    public var issuer: String?
    public var audience: String?
    /// Tolerated clock skew for `exp` and `nbf`.
    public var leeway: TimeInterval
    private let now: @Sendable () -> Date

    public init(key: Key, issuer: String? = nil, audience: String? = nil, leeway: TimeInterval = 60,
                now: @escaping @Sendable () -> Date = { Date() }) {
        self.key = key
        self.issuer = issuer
        self.audience = audience
        self.leeway = leeway
        self.now = now
    }

    public var announcement: String {
        "authenticating users with \(key.algorithm) bearer tokens"
            + (issuer.map { ", issuer \($0)" } ?? "") + (audience.map { ", audience \($0)" } ?? "")
    }

    private struct Header: Decodable { var alg: String }
    private struct Claims: Decodable {
        var sub: String?
        var iss: String?
        var aud: Audience?
        var exp: Double?
        var nbf: Double?
    }
    private enum Audience: Decodable {
        case one(String), many([String])
        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let one = try? container.decode(String.self) { self = .one(one) } else { self = .many(try container.decode([String].self)) }
        }
        func contains(_ value: String) -> Bool {
            switch self {
            case .one(let one): one == value
            case .many(let many): many.contains(value)
            }
        }
    }

    public func authenticate(_ headers: HTTPFields) async throws(APIError) -> UserID {
        guard let authorization = headers[.authorization], authorization.lowercased().hasPrefix("bearer ") else {
            throw APIError.unauthenticated
        }
        let token = authorization.dropFirst("bearer ".count).trimmingCharacters(in: .whitespaces)
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let headerData = Base64URL.decode(parts[0].utf8), let claimsData = Base64URL.decode(parts[1].utf8),
            let signature = Base64URL.decode(parts[2].utf8),
            let header = try? JSONDecoder().decode(Header.self, from: headerData),
            let claims = try? JSONDecoder().decode(Claims.self, from: claimsData)
        else {
            throw invalid("the bearer token is not a well-formed JWT")
        }
        guard header.alg == key.algorithm else { throw invalid("the token must be signed with \(key.algorithm)") }
        let signingInput = Data(token.utf8.prefix(parts[0].utf8.count + 1 + parts[1].utf8.count))
        guard verify(signature: signature, over: signingInput) else { throw invalid("the token's signature is not valid") }
        let now = now().timeIntervalSince1970
        guard let exp = claims.exp else { throw invalid("the token has no exp claim") }
        guard now <= exp + leeway else { throw invalid("the token has expired") }
        if let nbf = claims.nbf, now + leeway < nbf { throw invalid("the token is not valid yet") }
        if let issuer, claims.iss != issuer { throw invalid("the token's issuer is not accepted") }
        if let audience, claims.aud?.contains(audience) != true { throw invalid("the token's audience is not accepted") }
        guard let subject = claims.sub, !subject.isEmpty else { throw invalid("the token has no sub claim") }
        return UserID(subject)
    }

    private func verify(signature: Data, over input: Data) -> Bool {
        switch key {
        case .hs256(let secret):
            return HMAC<SHA256>.isValidAuthenticationCode(signature, authenticating: input, using: SymmetricKey(data: secret))
        case .es256(let publicKey):
            guard let ecdsa = try? P256.Signing.ECDSASignature(rawRepresentation: signature) else { return false }
            return publicKey.isValidSignature(ecdsa, for: input)
        case .rs256(let publicKey):
            return publicKey.isValidSignature(_RSA.Signing.RSASignature(rawRepresentation: signature), for: input,
                                              padding: .insecurePKCS1v1_5)
        }
    }

    private func invalid(_ message: String) -> APIError {
        APIError(.unauthorized, code: "invalid_token", message)
    }
}

extension JWTAuthenticator.Key {
    /// A key from a PEM public key file's contents (ES256: P-256 public key; RS256: RSA public key).
    public static func publicKey(algorithm: String, pem: String) throws -> Self {
        switch algorithm {
        case "ES256": return .es256(try P256.Signing.PublicKey(pemRepresentation: pem))
        case "RS256": return .rs256(try _RSA.Signing.PublicKey(pemRepresentation: pem))
        default: throw APIError(.internalServerError, code: "config", "unsupported JWT algorithm \(algorithm)")
        }
    }
}
