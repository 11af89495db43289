import Foundation

extension ServerConfiguration {
    /// The authenticator the configuration asks for. JWT mode without a key is an error, never a silent fallback.
    /// The HS256 secret is `auth.jwt.secret`, which `load` also reads from `PURSER_AUTH_JWT_SECRET` or
    /// `PURSER_JWT_SECRET`.
    public func makeAuthenticator() throws -> any Authenticator {
        switch auth.mode {
        case .development:
            return DevelopmentAuthenticator()
        case .jwt:
            let jwt = auth.jwt
            let key: JWTAuthenticator.Key
            switch jwt.algorithm {
            case "HS256":
                guard let secret = jwt.secret, secret.utf8.count >= 32 else {
                    throw ConfigurationError(
                        "HS256 needs a secret of at least 32 bytes in PURSER_JWT_SECRET or auth.jwt.secret")
                }
                key = .hs256(secret: Array(secret.utf8))
            case "ES256", "RS256":
                guard let file = jwt.publicKeyFile, let pem = try? String(contentsOfFile: file, encoding: .utf8) else {
                    throw ConfigurationError("\(jwt.algorithm) needs auth.jwt.publicKeyFile, a readable PEM public key")
                }
                do { key = try .publicKey(algorithm: jwt.algorithm, pem: pem) } catch let error as APIError {
                    throw ConfigurationError("auth.jwt.publicKeyFile: \(error.message)")
                } catch {
                    throw ConfigurationError("auth.jwt.publicKeyFile is not a \(jwt.algorithm) public key")
                }
            default:
                throw ConfigurationError("auth.jwt.algorithm must be HS256, ES256 or RS256")
            }
            return JWTAuthenticator(key: key, issuer: jwt.issuer, audience: jwt.audience)
        }
    }

    /// `makeAuthenticator()`, any failure as a `ConfigurationError` under `auth`.
    func checkedAuthenticator() throws(ConfigurationError) -> any Authenticator {
        do {
            return try makeAuthenticator()
        } catch let error as ConfigurationError {
            throw error
        } catch {
            throw ConfigurationError("auth: \(error)")
        }
    }
}
