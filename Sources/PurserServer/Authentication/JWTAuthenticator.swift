import AppStoreVerification
import Crypto
import Foundation
import Hummingbird
import JWTKit
import PurserCore
import Synchronization
import _CryptoExtras

/// Verifies `Authorization: Bearer <JWT>` issued by the game's own login service. The user is the `sub` claim: 1 to
/// 128 characters, not blank, as every user id (`UserID.isWellFormed`).
/// jwt-kit checks the signature; `exp` is required; `nbf`, `iss` and `aud` are checked when present or configured.
/// The header's `alg` must be the configured one, so a token cannot pick another algorithm (jwt-kit verifies with
/// the key's own algorithm whatever the header says; the authenticator also refuses a header that names another).
public final class JWTAuthenticator: Authenticator {
    /// The key that verifies tokens, which also fixes the algorithm.
    ///
    /// - Precondition: an HS256 secret has at least 32 bytes (RFC 7518 §3.2) and an RSA key at least 2048 bits
    ///   (jwt-kit's floor); `ServerConfiguration.makeAuthenticator()` checks both before it builds one.
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

    public let key: Key
    public let issuer: String?
    public let audience: String?
    /// Tolerated clock skew for `exp` and `nbf`.
    public let leeway: TimeInterval
    private let now: @Sendable () -> Date
    /// jwt-kit's collection holding `key`, made on first use: `JWTKeyCollection.add` is async, this initialiser not.
    private let collection = Mutex<JWTKeyCollection?>(nil)

    public init(
        key: Key, issuer: String? = nil, audience: String? = nil, leeway: TimeInterval = 60,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        switch key {
        case .hs256(let secret):
            precondition(secret.count >= 32, "an HS256 secret needs at least 32 bytes")
        case .es256:
            break
        case .rs256(let publicKey):
            precondition(publicKey.keySizeInBits >= 2048, "an RS256 key needs at least 2048 bits")
        }
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

    /// The claims the authenticator reads, as jwt-kit's claim types (`aud` is a string or an array).
    struct Claims: JWTPayload {
        var sub: SubjectClaim?
        var iss: IssuerClaim?
        var aud: AudienceClaim?
        var exp: ExpirationClaim?
        var nbf: NotBeforeClaim?

        /// Nothing here: the time claims depend on the authenticator's clock and leeway, so `authenticate` checks
        /// them once jwt-kit has verified the signature.
        func verify(using algorithm: some JWTAlgorithm) {}
    }

    public func authenticate(_ headers: HTTPFields) async throws(APIError) -> UserID {
        guard let authorization = headers[.authorization], authorization.lowercased().hasPrefix("bearer ") else {
            throw APIError.unauthenticated
        }
        let token = authorization.dropFirst("bearer ".count).trimmingCharacters(in: .whitespaces)
        let header: JWTHeader
        do {
            header = try DefaultJWTParser().parse(Array(token.utf8), as: Claims.self).header
        } catch {
            throw invalid("the bearer token is not a well-formed JWT")
        }
        guard header.alg == key.algorithm else { throw invalid("the token must be signed with \(key.algorithm)") }
        let claims: Claims
        do {
            claims = try await keys().verify(token, as: Claims.self)
        } catch let error as JWTError where error.errorType == .signatureVerificationFailed {
            throw invalid("the token's signature is not valid")
        } catch {
            throw invalid("the bearer token is not a well-formed JWT")
        }
        try check(claims)
        guard let subject = claims.sub?.value, !subject.isBlank else { throw invalid("the token has no sub claim") }
        guard UserID.isWellFormed(subject) else {
            throw invalid("the token's sub claim is longer than \(UserID.maxLength) characters")
        }
        return UserID(subject)
    }

    /// `exp` (required) and `nbf` with `leeway` against the clock, then `iss` and `aud` against the configuration.
    private func check(_ claims: Claims) throws(APIError) {
        let now = now()
        guard let exp = claims.exp else { throw invalid("the token has no exp claim") }
        do { try exp.verifyNotExpired(currentDate: now - leeway) } catch { throw invalid("the token has expired") }
        do { try claims.nbf?.verifyNotBefore(currentDate: now + leeway) } catch {
            throw invalid("the token is not valid yet")
        }
        if let issuer, claims.iss?.value != issuer { throw invalid("the token's issuer is not accepted") }
        if let audience {
            guard let aud = claims.aud else { throw invalid("the token's audience is not accepted") }
            do { try aud.verifyIntendedAudience(includes: audience) } catch {
                throw invalid("the token's audience is not accepted")
            }
        }
    }

    /// The collection holding `key`; two first callers may both build one, and the first stored wins.
    private func keys() async -> JWTKeyCollection {
        if let ready = collection.withLock({ $0 }) { return ready }
        let made = await key.collection()
        return collection.withLock { stored in
            if let stored { return stored }
            stored = made
            return made
        }
    }

    private func invalid(_ message: String) -> APIError {
        APIError(.unauthorized, code: "invalid_token", message)
    }
}

extension JWTAuthenticator.Key {
    /// A key from a PEM public key file's contents (ES256: P-256 public key; RS256: RSA public key of at least
    /// 2048 bits).
    public static func publicKey(algorithm: String, pem: String) throws -> Self {
        switch algorithm {
        case "ES256":
            return .es256(try P256.Signing.PublicKey(pemRepresentation: pem))
        case "RS256":
            let key = try _RSA.Signing.PublicKey(pemRepresentation: pem)
            guard key.keySizeInBits >= 2048 else {
                throw APIError(.internalServerError, code: "config", "an RS256 key needs at least 2048 bits")
            }
            return .rs256(key)
        default:
            throw APIError(.internalServerError, code: "config", "unsupported JWT algorithm \(algorithm)")
        }
    }

    /// A jwt-kit collection whose only (default) key is this one; its algorithm is the key's.
    func collection() async -> JWTKeyCollection {
        let keys = JWTKeyCollection()
        do {
            switch self {
            case .hs256(let secret):
                await keys.add(hmac: HMACKey(from: secret), digestAlgorithm: .sha256)
            case .es256(let publicKey):
                let key = try ES256PublicKey(backing: publicKey)
                await keys.add(ecdsa: key)
            case .rs256(let publicKey):
                let key = try Insecure.RSA.PublicKey(backing: publicKey)
                await keys.add(rsa: key, digestAlgorithm: .sha256)
            }
        } catch {
            // Unreachable: a P-256 key always converts, and `init` made sure the RSA key has 2048 bits or more.
            preconditionFailure("jwt-kit refused the \(algorithm) key: \(error)")
        }
        return keys
    }
}
