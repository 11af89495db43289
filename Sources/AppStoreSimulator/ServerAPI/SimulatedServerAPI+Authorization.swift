import AppStoreVerification
import Crypto
import Foundation

extension SimulatedServerAPI {
    /// Admits one call: answers the next injected fault, if any, then checks the bearer token as Apple does.
    /// Returns the key that signed it. Every Server API endpoint of the simulator starts here.
    /// - Parameter authorization: the request's `Authorization` header.
    /// - Throws: the fault, or `unauthorized` (HTTP 401) with the reason in the message.
    public func authorize(_ authorization: String?) throws(AppStoreServerAPIError) -> Key {
        if !faults.isEmpty { throw faults.removeFirst().error }
        do {
            return try verify(authorization)
        } catch {
            throw AppStoreServerAPIError(.unauthorized, error.reason, httpStatus: 401)
        }
    }

    /// Why a token was refused; goes into the 401's `WWW-Authenticate` header.
    struct Refusal: Error {
        var reason: String
        init(_ reason: String) { self.reason = reason }
    }

    /// The longest `exp − iat` Apple accepts, and the clock skew tolerated on `iat`.
    static let maximumLifetime: TimeInterval = 60 * 60
    static let allowedSkew: TimeInterval = 60

    func verify(_ authorization: String?) throws(Refusal) -> Key {
        guard let authorization, authorization.lowercased().hasPrefix("bearer ") else {
            throw Refusal("no bearer token")
        }
        let token = authorization.dropFirst("bearer ".count).trimmingCharacters(in: .whitespaces)
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3,
              let headerJSON = Base64URL.decode(parts[0].utf8), let claimsJSON = Base64URL.decode(parts[1].utf8),
              let signatureBytes = Base64URL.decode(parts[2].utf8)
        else { throw Refusal("not a compact JWT") }
        guard let header = try? JSONDecoder().decode(AppStoreServerAPIToken.Header.self, from: headerJSON) else {
            throw Refusal("the header does not decode")
        }
        guard header.alg == "ES256" else { throw Refusal("alg must be ES256") }
        guard let key = keys[header.kid] else { throw Refusal("unknown kid") }
        guard let signature = try? P256.Signing.ECDSASignature(rawRepresentation: signatureBytes),
              key.publicKey.isValidSignature(signature, for: Data("\(parts[0]).\(parts[1])".utf8))
        else { throw Refusal("bad signature") }
        guard let claims = try? JSONDecoder().decode(AppStoreServerAPIToken.Claims.self, from: claimsJSON) else {
            throw Refusal("the claims do not decode (iss, exp, aud and bid are required)")
        }
        guard claims.iss == key.issuerId else { throw Refusal("iss does not match the key") }
        guard claims.bid == key.bundleId else { throw Refusal("bid does not match the key") }
        guard claims.aud == AppStoreServerAPIToken.audience else { throw Refusal("aud must be appstoreconnect-v1") }
        let now = now().timeIntervalSince1970
        let expires = TimeInterval(claims.exp)
        guard expires > now else { throw Refusal("expired") }
        if let iat = claims.iat.map(TimeInterval.init) {
            guard iat <= now + Self.allowedSkew else { throw Refusal("iat is in the future") }
            guard expires - iat <= Self.maximumLifetime else { throw Refusal("lives longer than 60 minutes") }
        } else {
            guard expires - now <= Self.maximumLifetime + Self.allowedSkew else {
                throw Refusal("exp is more than 60 minutes away")
            }
        }
        return key
    }
}
