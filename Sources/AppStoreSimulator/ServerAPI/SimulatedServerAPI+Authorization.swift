import AppStoreVerification
import Foundation
import JWTKit

extension SimulatedServerAPI {
    /// Admits one call: answers the next injected fault, if any, then checks the bearer token as Apple does.
    /// Returns the key that signed it, acting for the token's `bid`. Every Server API endpoint of the simulator starts here.
    /// - Parameter authorization: the request's `Authorization` header.
    /// - Throws: the fault, or `unauthorized` (HTTP 401) with the reason in the message.
    public func authorize(_ authorization: String?) async throws(AppStoreServerAPIError) -> Key {
        if !faults.isEmpty { throw faults.removeFirst().error }
        do {
            return try await verify(authorization)
        } catch {
            refusals[error.reason, default: 0] += 1
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

    /// Any JSON object: the header is read before the claims are trusted or even required to decode.
    private struct AnyClaims: JWTPayload {
        func verify(using algorithm: some JWTAlgorithm) {}
    }

    /// jwt-kit reads the header and checks the signature with the key the `kid` names (`signers`); the claims
    /// rules are Apple's own (a key's `iss` and `bid`, the 60-minute lifetime, `iat` optional) and need the
    /// simulator's clock, so they are checked here once the signature holds.
    func verify(_ authorization: String?) async throws(Refusal) -> Key {
        guard let authorization, authorization.lowercased().hasPrefix("bearer ") else {
            throw Refusal("no bearer token")
        }
        let token = authorization.dropFirst("bearer ".count).trimmingCharacters(in: .whitespaces)
        let header: JWTHeader
        do {
            header = try DefaultJWTParser().parse(Array(token.utf8), as: AnyClaims.self).header
        } catch {
            throw Refusal("not a compact JWT with a JSON header and payload")
        }
        // jwt-kit verifies with the key's algorithm whatever the header says; Apple also refuses another `alg`.
        guard header.alg == "ES256" else { throw Refusal("alg must be ES256") }
        guard let kid = header.kid, let key = keys[kid] else { throw Refusal("unknown kid") }
        let claims: AppStoreServerAPIToken.Claims
        do {
            claims = try await signers.verify(token, as: AppStoreServerAPIToken.Claims.self)
        } catch let error as JWTError where error.errorType == .signatureVerificationFailed {
            throw Refusal("bad signature")
        } catch {
            throw Refusal("the claims do not decode (iss, exp, aud and bid are required)")
        }
        guard claims.iss == key.issuerId else { throw Refusal("iss does not match the key") }
        guard key.bundleIds.contains(claims.bid) else { throw Refusal("bid does not match the key") }
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
        var acting = key
        acting.bundleId = claims.bid
        return acting
    }
}
