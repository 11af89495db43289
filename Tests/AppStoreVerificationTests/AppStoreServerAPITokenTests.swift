import AppStoreVerification
import Crypto
import Foundation
import Testing

/// A clock tests move by hand.
final class ManualClock: @unchecked Sendable {
    private let lock = NSLock()
    private var date: Date

    init(_ date: Date = Date(timeIntervalSince1970: 1_750_000_000)) { self.date = date }

    var now: Date { lock.withLock { date } }
    func advance(by seconds: TimeInterval) { lock.withLock { date += seconds } }
}

/// The three parts of a compact JWT, decoded.
struct DecodedJWT {
    var header: [String: Any]
    var claims: [String: Any]
    var signingInput: Data
    var signature: Data

    init(_ token: String) throws {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        try #require(parts.count == 3)
        func object(_ part: String) throws -> [String: Any] {
            let json = try #require(Base64URL.decode(Array(part.utf8)))
            return try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
        }
        header = try object(parts[0])
        claims = try object(parts[1])
        signingInput = Data((parts[0] + "." + parts[1]).utf8)
        signature = try #require(Base64URL.decode(Array(parts[2].utf8)))
    }

    func verifies(with key: P256.Signing.PublicKey) -> Bool {
        guard let signature = try? P256.Signing.ECDSASignature(rawRepresentation: signature) else { return false }
        return key.isValidSignature(signature, for: signingInput)
    }
}

@Suite struct AppStoreServerAPITokenTests {
    let key = P256.Signing.PrivateKey()

    func token(clock: ManualClock, lifetime: Duration = .seconds(1800)) throws -> AppStoreServerAPIToken {
        try AppStoreServerAPIToken(
            issuerID: "57246542-96fe-1a63-e053-0824d011072a", keyID: "2X9R4HXF34",
            bundleID: "com.example.app", privateKey: key, lifetime: lifetime,
            now: { clock.now })
    }

    @Test func carriesApplesHeaderAndClaimsAndVerifiesWithThePublicKey() async throws {
        let clock = ManualClock()
        let jwt = try DecodedJWT(try await token(clock: clock).current())
        #expect(jwt.header["alg"] as? String == "ES256")
        #expect(jwt.header["kid"] as? String == "2X9R4HXF34")
        #expect(jwt.header["typ"] as? String == "JWT")
        #expect(jwt.claims["iss"] as? String == "57246542-96fe-1a63-e053-0824d011072a")
        #expect(jwt.claims["aud"] as? String == "appstoreconnect-v1")
        #expect(jwt.claims["bid"] as? String == "com.example.app")
        let iat = try #require(jwt.claims["iat"] as? Int)
        #expect(iat == Int(clock.now.timeIntervalSince1970))
        #expect(jwt.claims["exp"] as? Int == iat + 1800)
        #expect(jwt.signature.count == 64, "raw r‖s, not DER")
        #expect(jwt.verifies(with: key.publicKey))
        #expect(!jwt.verifies(with: P256.Signing.PrivateKey().publicKey))
    }

    @Test func isCachedAndRenewedWhenLessThanFiveMinutesRemain() async throws {
        let clock = ManualClock()
        let tokens = try token(clock: clock)
        let first = try await tokens.current()
        clock.advance(by: 20 * 60)
        #expect(try await tokens.current() == first, "25 minutes left: the cached token")
        clock.advance(by: 5 * 60 + 1)
        let renewed = try await tokens.current()
        #expect(renewed != first, "under 5 minutes left: a new token")
        let claims = try DecodedJWT(renewed).claims
        #expect(claims["iat"] as? Int == Int(clock.now.timeIntervalSince1970))
        #expect(try await tokens.current() == renewed)
    }

    @Test func handsOutOneTokenToConcurrentCallers() async throws {
        let tokens = try token(clock: ManualClock())
        let all = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<32 { group.addTask { try await tokens.current() } }
            return try await group.reduce(into: Set<String>()) { $0.insert($1) }
        }
        #expect(all.count == 1)
    }

    @Test func refusesLifetimesOverAnHour() async throws {
        #expect(throws: AppStoreServerAPIError(.invalidConfiguration, "")) {
            try token(clock: ManualClock(), lifetime: .seconds(3601))
        }
        let longest = try DecodedJWT(try await token(clock: ManualClock(), lifetime: .seconds(3600)).current())
        #expect((longest.claims["exp"] as? Int ?? 0) - (longest.claims["iat"] as? Int ?? 0) == 3600)
    }

    @Test func readsTheKeyFromA_p8PEM() async throws {
        let clock = ManualClock()
        let fromPEM = try AppStoreServerAPIToken(
            issuerID: "issuer", keyID: "KEY", bundleID: "com.example.app",
            privateKeyPEM: key.pemRepresentation, now: { clock.now })
        #expect(try DecodedJWT(try await fromPEM.current()).verifies(with: key.publicKey))
        #expect(throws: AppStoreServerAPIError(.invalidKey, "")) {
            try AppStoreServerAPIToken(issuerID: "issuer", keyID: "KEY", bundleID: "b", privateKeyPEM: "not a key")
        }
    }
}
