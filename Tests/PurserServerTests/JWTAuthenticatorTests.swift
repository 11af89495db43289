import AppStoreVerification
import Crypto
import Foundation
import HTTPTypes
import PurserCore
import PurserServer
import Testing
import _CryptoExtras

@Suite struct JWTAuthenticatorTests {
    let now = Date(timeIntervalSince1970: 1_704_067_200)
    let secret = Array("a-secret-of-at-least-thirty-two-bytes!!".utf8)

    func token(alg: String, claims: [String: Any], sign: (Data) throws -> Data) throws -> String {
        let header = Base64URL.encode(try JSONSerialization.data(withJSONObject: ["alg": alg, "typ": "JWT"]))
        let body = Base64URL.encode(try JSONSerialization.data(withJSONObject: claims))
        let input = header + "." + body
        return input + "." + Base64URL.encode(try sign(Data(input.utf8)))
    }

    func hs256(_ claims: [String: Any], secret: [UInt8]? = nil) throws -> String {
        try token(alg: "HS256", claims: claims) {
            Data(HMAC<SHA256>.authenticationCode(for: $0, using: SymmetricKey(data: secret ?? self.secret)))
        }
    }

    func headers(_ token: String) -> HTTPFields { [.authorization: "Bearer \(token)"] }

    func authenticator(issuer: String? = "login", audience: String? = "game") -> JWTAuthenticator {
        JWTAuthenticator(key: .hs256(secret: secret), issuer: issuer, audience: audience, now: { [now] in now })
    }

    var valid: [String: Any] {
        ["sub": "alice", "iss": "login", "aud": "game", "exp": now.timeIntervalSince1970 + 600]
    }

    @Test func acceptsAValidHS256Token() async throws {
        #expect(try await authenticator().authenticate(headers(try hs256(valid))) == "alice")
        var many = valid
        many["aud"] = ["other", "game"]
        #expect(try await authenticator().authenticate(headers(try hs256(many))) == "alice")
    }

    @Test func refusesBadTokens() async throws {
        var expired = valid
        expired["exp"] = now.timeIntervalSince1970 - 3600
        var wrongIssuer = valid
        wrongIssuer["iss"] = "evil"
        var wrongAudience = valid
        wrongAudience["aud"] = "other"
        var noExpiry = valid
        noExpiry["exp"] = nil
        var early = valid
        early["nbf"] = now.timeIntervalSince1970 + 3600
        let tokens = [
            try hs256(expired), try hs256(wrongIssuer), try hs256(wrongAudience), try hs256(noExpiry), try hs256(early),
            try hs256(valid, secret: Array("another-secret-of-thirty-two-bytes-long".utf8)),
            try token(alg: "none", claims: valid) { _ in Data() },
            "not.a.jwt", "garbage",
        ]
        for token in tokens {
            await #expect(throws: APIError.self) { try await authenticator().authenticate(headers(token)) }
        }
        await #expect(throws: APIError.self) { try await authenticator().authenticate([:]) }
    }

    /// `sub` follows the rule of every user id (1 to 128 characters, not blank), as development mode's header does: a
    /// 10,000-character one was once taken and stored, and the admin API could then not look that user up.
    @Test func refusesASubLongerThanAUserIDWithAReason() async throws {
        var longest = valid
        longest["sub"] = String(repeating: "界", count: 128)
        #expect(try await authenticator().authenticate(headers(try hs256(longest))).rawValue.count == 128)
        for sub in [String(repeating: "a", count: 129), String(repeating: "a", count: 10_000)] {
            var long = valid
            long["sub"] = sub
            do {
                _ = try await authenticator().authenticate(headers(try hs256(long)))
                Issue.record("a sub of \(sub.count) characters was taken")
            } catch let error as APIError {
                #expect(error.status == .unauthorized && error.code == "invalid_token")
                #expect(error.message == "the token's sub claim is longer than 128 characters")
            }
        }
        let development = DevelopmentAuthenticator()
        await #expect(throws: APIError.self) {
            try await development.authenticate([DevelopmentAuthenticator.header: String(repeating: "a", count: 129)])
        }
    }

    @Test func verifiesES256AndRS256() async throws {
        let ecKey = P256.Signing.PrivateKey()
        let es = JWTAuthenticator(key: .es256(ecKey.publicKey), now: { [now] in now })
        let esToken = try token(alg: "ES256", claims: valid) { try ecKey.signature(for: $0).rawRepresentation }
        #expect(try await es.authenticate(headers(esToken)) == "alice")
        // An HS256 token signed with the public key as secret must not pass (algorithm confusion).
        let confused = try token(alg: "HS256", claims: valid) {
            Data(HMAC<SHA256>.authenticationCode(for: $0, using: SymmetricKey(data: ecKey.publicKey.rawRepresentation)))
        }
        await #expect(throws: APIError.self) { try await es.authenticate(headers(confused)) }

        let rsaKey = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        let rs = JWTAuthenticator(key: .rs256(rsaKey.publicKey), now: { [now] in now })
        let rsToken = try token(alg: "RS256", claims: valid) {
            try rsaKey.signature(for: $0, padding: .insecurePKCS1v1_5).rawRepresentation
        }
        #expect(try await rs.authenticate(headers(rsToken)) == "alice")
    }

    /// The refusal's code and message, or nil when the token passed.
    func refusal(_ authenticator: JWTAuthenticator, _ headers: HTTPFields) async -> (code: String, message: String)? {
        do {
            _ = try await authenticator.authenticate(headers)
            return nil
        } catch {
            return (error.code, error.message)
        }
    }

    @Test func refusalsKeepTheirCodesAndSayWhy() async throws {
        var expired = valid
        expired["exp"] = now.timeIntervalSince1970 - 3600
        var noSubject = valid
        noSubject["sub"] = nil
        let cases: [(token: String, message: String)] = [
            (try hs256(expired), "expired"),
            (try hs256(valid, secret: Array("another-secret-of-thirty-two-bytes-long".utf8)), "signature"),
            (try token(alg: "none", claims: valid) { _ in Data() }, "HS256"),
            (try hs256(noSubject), "sub"),
            ("not.a.jwt", "well-formed"),
        ]
        for (token, message) in cases {
            let refused = try #require(await refusal(authenticator(), headers(token)))
            #expect(refused.code == "invalid_token")
            #expect(refused.message.contains(message), "\(refused.message)")
        }
        #expect(await refusal(authenticator(), [:])?.code == "unauthenticated")
        #expect(await refusal(authenticator(), [.authorization: "Basic YWxpY2U6c2VjcmV0"])?.code == "unauthenticated")
    }

    @Test(arguments: ["", " ", "\t\n", "\u{3000}\u{00A0}"])
    func refusesABlankSubject(subject: String) async throws {
        var blank = valid
        blank["sub"] = subject
        let refused = try #require(await refusal(authenticator(), headers(try hs256(blank))))
        #expect(refused.code == "invalid_token")
        #expect(refused.message.contains("sub"))
        var padded = valid
        padded["sub"] = subject + "alice"
        #expect(try await authenticator().authenticate(headers(try hs256(padded))).rawValue == subject + "alice")
    }

    @Test func theHeaderCannotNameAnotherAlgorithm() async throws {
        // Signed with the right secret and HMAC-SHA256, but the header claims HS384: jwt-kit alone would verify it
        // with the key's own algorithm and accept it; the pinned algorithm refuses it.
        let relabelled = try token(alg: "HS384", claims: valid) {
            Data(HMAC<SHA256>.authenticationCode(for: $0, using: SymmetricKey(data: secret)))
        }
        let refused = try #require(await refusal(authenticator(), headers(relabelled)))
        #expect(refused.message.contains("HS256"))
    }

    @Test func refusesAlgorithmConfusionAndNoneForPublicKeys() async throws {
        let rsaKey = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        let rs = JWTAuthenticator(key: .rs256(rsaKey.publicKey), now: { [now] in now })
        // The classic attack: HMAC the token with the public key's bytes (PEM or DER), as a verifier that trusts
        // the header would use them as an HS256 secret.
        for publicBytes in [Data(rsaKey.publicKey.pemRepresentation.utf8), rsaKey.publicKey.derRepresentation] {
            let confused = try token(alg: "HS256", claims: valid) {
                Data(HMAC<SHA256>.authenticationCode(for: $0, using: SymmetricKey(data: publicBytes)))
            }
            #expect(await refusal(rs, headers(confused))?.code == "invalid_token")
        }
        let ecKey = P256.Signing.PrivateKey()
        let es = JWTAuthenticator(key: .es256(ecKey.publicKey), now: { [now] in now })
        for authenticator in [rs, es] {
            let unsigned = try token(alg: "none", claims: valid) { _ in Data() }
            #expect(await refusal(authenticator, headers(unsigned))?.code == "invalid_token")
        }
        // A valid ES256 signature under an RS256 header is refused too.
        let esSigned = try token(alg: "RS256", claims: valid) { try ecKey.signature(for: $0).rawRepresentation }
        #expect(await refusal(rs, headers(esSigned)) != nil)
    }

    @Test func allowsSixtySecondsOfClockSkew() async throws {
        var justExpired = valid
        justExpired["exp"] = now.timeIntervalSince1970 - 30
        var longExpired = valid
        longExpired["exp"] = now.timeIntervalSince1970 - 90
        var almostValid = valid
        almostValid["nbf"] = now.timeIntervalSince1970 + 30
        var notYetValid = valid
        notYetValid["nbf"] = now.timeIntervalSince1970 + 90
        #expect(try await authenticator().authenticate(headers(try hs256(justExpired))) == "alice")
        #expect(try await authenticator().authenticate(headers(try hs256(almostValid))) == "alice")
        let late = await refusal(authenticator(), headers(try hs256(longExpired)))
        #expect(late?.message.contains("expired") == true)
        let early = await refusal(authenticator(), headers(try hs256(notYetValid)))
        #expect(early?.message.contains("not valid yet") == true)
    }

}
