import Crypto
import Foundation
import JWTKit
import PurserCore
import Synchronization

/// The bearer token of the App Store Server API: an ES256 JWT signed with an App Store Connect in-app purchase key.
///
/// Header `{"alg":"ES256","kid":KEY_ID,"typ":"JWT"}`, payload
/// `{"iss":ISSUER_ID,"iat":…,"exp":…,"aud":"appstoreconnect-v1","bid":BUNDLE_ID}`, signature the raw `r‖s` in
/// base64url; jwt-kit signs it. Apple refuses tokens that live longer than 60 minutes. `current()` hands out one cached
/// token and signs a new one when less than `renewalMargin` of its life remains; it is safe to call from any task.
public final class AppStoreServerAPIToken: Sendable {
    /// The `aud` every App Store Server API token carries.
    public static let audience = "appstoreconnect-v1"
    /// The longest lifetime Apple accepts.
    public static let maximumLifetime: Duration = .seconds(60 * 60)

    /// The key's issuer (App Store Connect › Users and Access › Integrations), the `iss` claim.
    public let issuerID: String
    /// The key's id, the header's `kid`.
    public let keyID: String
    /// The app's bundle id, the `bid` claim.
    public let bundleID: String
    /// `exp − iat` of each token.
    public let lifetime: Duration
    /// A cached token with less than this left is renewed.
    public let renewalMargin: Duration

    private let privateKey: P256.Signing.PrivateKey
    private let now: @Sendable () -> Date
    private let cache = Mutex<(token: String, issuedAt: Date, expiresAt: Date)?>(nil)
    /// One renewal at a time, so concurrent callers share one new token.
    private let renewal = AsyncSerialLock()

    /// - Parameters:
    ///   - lifetime: at most 60 minutes (Apple's limit); 30 by default.
    ///   - renewalMargin: less than `lifetime`; 5 minutes by default.
    ///   - now: the clock that stamps `iat` and decides renewal.
    /// - Throws: `invalid_configuration` for a lifetime outside (renewalMargin, 60 min] or empty identifiers.
    public init(
        issuerID: String, keyID: String, bundleID: String, privateKey: P256.Signing.PrivateKey,
        lifetime: Duration = .seconds(30 * 60), renewalMargin: Duration = .seconds(5 * 60),
        now: @escaping @Sendable () -> Date = { Date() }
    ) throws(AppStoreServerAPIError) {
        guard !issuerID.isEmpty, !keyID.isEmpty, !bundleID.isEmpty else {
            throw AppStoreServerAPIError(.invalidConfiguration, "issuer id, key id and bundle id are all required")
        }
        guard lifetime <= Self.maximumLifetime, renewalMargin >= .zero, lifetime > renewalMargin else {
            throw AppStoreServerAPIError(
                .invalidConfiguration, "token lifetime must be at most 60 minutes and longer than the renewal margin")
        }
        self.issuerID = issuerID
        self.keyID = keyID
        self.bundleID = bundleID
        self.privateKey = privateKey
        self.lifetime = lifetime
        self.renewalMargin = renewalMargin
        self.now = now
    }

    /// Like `init(issuerID:keyID:bundleID:privateKey:…)`, with the key as App Store Connect's `.p8` PEM text.
    /// - Throws: `invalid_key` when the text is not a P-256 private key.
    public convenience init(
        issuerID: String, keyID: String, bundleID: String, privateKeyPEM: String,
        lifetime: Duration = .seconds(30 * 60), renewalMargin: Duration = .seconds(5 * 60),
        now: @escaping @Sendable () -> Date = { Date() }
    ) throws(AppStoreServerAPIError) {
        try self.init(
            issuerID: issuerID, keyID: keyID, bundleID: bundleID,
            privateKey: try Self.privateKey(pem: privateKeyPEM),
            lifetime: lifetime, renewalMargin: renewalMargin, now: now)
    }

    /// Reads a P-256 private key from PEM (PKCS #8 `PRIVATE KEY`, as in `.p8` files, or SEC 1 `EC PRIVATE KEY`).
    public static func privateKey(pem: String) throws(AppStoreServerAPIError) -> P256.Signing.PrivateKey {
        do {
            return try P256.Signing.PrivateKey(pemRepresentation: pem)
        } catch {
            throw AppStoreServerAPIError(.invalidKey, "the private key is not a P-256 key in PEM", cause: error)
        }
    }

    /// The token to send now: the cached one, or a fresh one when the cached one is close to expiry. Concurrent
    /// callers that find no usable token wait for one renewal and share its token.
    public func current() async throws(AppStoreServerAPIError) -> String {
        if let token = cached(at: now()) { return token }
        do {
            return try await renewal.withLock { [self] in
                let date = now()
                if let token = cached(at: date) { return token }
                let issuedAt = Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down))
                let token = try await make(issuedAt: issuedAt)
                cache.withLock { $0 = (token, issuedAt, issuedAt + lifetime.timeInterval) }
                return token
            }
        } catch let error as AppStoreServerAPIError {
            throw error
        } catch {
            throw AppStoreServerAPIError(.invalidKey, "could not sign the App Store Server API token", cause: error)
        }
    }

    /// The cached token when it was issued by `date` and more than `renewalMargin` of its life remains.
    private func cached(at date: Date) -> String? {
        cache.withLock { cached in
            guard let cached, cached.issuedAt <= date, date + renewalMargin.timeInterval < cached.expiresAt else {
                return nil
            }
            return cached.token
        }
    }

    /// Signs a new token issued at `issuedAt` (whole seconds) with jwt-kit, bypassing the cache.
    public func make(issuedAt: Date) async throws(AppStoreServerAPIError) -> String {
        let iat = Int64(issuedAt.timeIntervalSince1970.rounded(.down))
        let exp = iat + Int64(lifetime.timeInterval.rounded(.down))
        let claims = Claims(iss: issuerID, iat: iat, exp: exp, aud: Self.audience, bid: bundleID)
        do {
            let signingKey = try ES256PrivateKey(backing: privateKey)
            let keys = await JWTKeyCollection().add(ecdsa: signingKey)
            // jwt-kit fills in `alg` from the key and `typ` "JWT"; the signature is the raw r‖s.
            return try await keys.sign(claims, kid: JWKIdentifier(string: keyID))
        } catch {
            throw AppStoreServerAPIError(.invalidKey, "could not sign the App Store Server API token", cause: error)
        }
    }

    /// The JWT claims, with Apple's names. `iat` and `exp` are whole seconds since 1970.
    public struct Claims: Codable, Hashable, Sendable, JWTPayload {
        public var iss: String
        /// Optional when decoding: Apple's own libraries leave it out.
        public var iat: Int64?
        public var exp: Int64
        public var aud: String
        public var bid: String

        /// Nothing to check on the signing side; the App Store Server API (or its simulator) checks `iss`, `bid`, `aud`
        /// and the lifetime against the key and its own clock.
        public func verify(using algorithm: some JWTAlgorithm) {}
    }
}

extension Duration {
    /// The duration in (fractional) seconds, for `Date` arithmetic.
    var timeInterval: TimeInterval {
        let (seconds, attoseconds) = components
        return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
    }
}
