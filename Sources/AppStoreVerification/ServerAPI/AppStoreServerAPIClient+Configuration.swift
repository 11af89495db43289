import Crypto
import Foundation
import PurserCore

extension AppStoreServerAPIClient {
    /// Who calls (the App Store Connect key), where (Apple's production or sandbox host, or a simulator), and how
    /// patiently. Every field but the key's identity has a default.
    public struct Configuration: Sendable {
        /// Apple's production host (the current one, `api.storekit.apple.com`).
        public static let productionURL = URL(string: "https://api.storekit.apple.com")!
        /// Apple's sandbox host (the current one, `api.storekit-sandbox.apple.com`).
        public static let sandboxURL = URL(string: "https://api.storekit-sandbox.apple.com")!
        /// Apple's former production host, which still answers; for networks that only allow it.
        public static let legacyProductionURL = URL(string: "https://api.storekit.itunes.apple.com")!
        /// Apple's former sandbox host.
        public static let legacySandboxURL = URL(string: "https://api.storekit-sandbox.itunes.apple.com")!

        /// The key's issuer id (App Store Connect › Users and Access › Integrations › In-App Purchase).
        public var issuerID: String
        /// The key's id.
        public var keyID: String
        /// The app's bundle id; Apple answers only about this app.
        public var bundleID: String
        /// The in-app purchase key. A **secret**: never logged.
        public var privateKey: P256.Signing.PrivateKey
        /// `productionURL`, `sandboxURL`, or any base URL (a simulator's `http://127.0.0.1:8081`); Apple's paths
        /// (`/inApps/v1/…`) are appended to it.
        public var baseURL: URL
        /// Each attempt's time-out, handed to the transport.
        public var timeout: Duration
        public var retryPolicy: RetryPolicy
        /// How long each bearer token lives (at most 60 minutes).
        public var tokenLifetime: Duration
        /// The clock that stamps tokens.
        public var now: @Sendable () -> Date
        /// Waits between attempts; tests inject one that records the delay and returns at once.
        public var sleep: @Sendable (Duration) async throws -> Void

        public init(
            issuerID: String, keyID: String, bundleID: String, privateKey: P256.Signing.PrivateKey,
            baseURL: URL = productionURL, timeout: Duration = .seconds(30), retryPolicy: RetryPolicy = .init(),
            tokenLifetime: Duration = .seconds(30 * 60), now: @escaping @Sendable () -> Date = { Date() },
            sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }
        ) {
            self.issuerID = issuerID
            self.keyID = keyID
            self.bundleID = bundleID
            self.privateKey = privateKey
            self.baseURL = baseURL
            self.timeout = timeout
            self.retryPolicy = retryPolicy
            self.tokenLifetime = tokenLifetime
            self.now = now
            self.sleep = sleep
        }

        /// Like `init(issuerID:keyID:bundleID:privateKey:…)`, with the key as the `.p8` file's PEM text.
        /// - Throws: `invalid_key` when the text is not a P-256 private key.
        public init(
            issuerID: String, keyID: String, bundleID: String, privateKeyPEM: String,
            baseURL: URL = productionURL, timeout: Duration = .seconds(30), retryPolicy: RetryPolicy = .init(),
            tokenLifetime: Duration = .seconds(30 * 60), now: @escaping @Sendable () -> Date = { Date() },
            sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }
        )
            throws(AppStoreServerAPIError)
        {
            self.init(
                issuerID: issuerID, keyID: keyID, bundleID: bundleID,
                privateKey: try AppStoreServerAPIToken.privateKey(pem: privateKeyPEM), baseURL: baseURL,
                timeout: timeout, retryPolicy: retryPolicy, tokenLifetime: tokenLifetime, now: now, sleep: sleep)
        }
    }

    /// How often, and after how long, a call is tried again. Retried: HTTP 429 (after `Retry-After` seconds when
    /// Apple sends it, else the backoff), 5xx, Apple's "retryable" 4xx codes, time-outs and transport failures.
    /// Never retried: 401 and other 4xx.
    public struct RetryPolicy: Hashable, Sendable {
        /// Attempts in all, the first included (at least 1).
        public var maximumAttempts: Int
        /// The wait before the second attempt; it doubles for each attempt after that.
        public var baseDelay: Duration
        /// The longest backoff wait.
        public var maximumDelay: Duration
        /// A longer `Retry-After` is not waited for in the call: the call fails at once with `rate_limit_exceeded`
        /// and the requested wait in `retryAfter`, for the caller to schedule.
        public var maximumRetryAfter: Duration

        public init(
            maximumAttempts: Int = 3, baseDelay: Duration = .seconds(1), maximumDelay: Duration = .seconds(30),
            maximumRetryAfter: Duration = .seconds(60)
        ) {
            self.maximumAttempts = max(1, maximumAttempts)
            self.baseDelay = baseDelay
            self.maximumDelay = maximumDelay
            self.maximumRetryAfter = maximumRetryAfter
        }

        /// One attempt, no retries.
        public static let none = RetryPolicy(maximumAttempts: 1)

        /// The backoff wait after failed attempt number `attempt` (1-based): `baseDelay × 2^(attempt − 1)`, capped.
        public func backoff(afterAttempt attempt: Int) -> Duration {
            ExponentialBackoff(base: baseDelay, maximum: maximumDelay).delay(afterFailures: attempt)
        }
    }
}

extension AppStoreServerAPIClient.Configuration: CustomStringConvertible, CustomDebugStringConvertible {
    /// Everything but the private key, which is a secret.
    public var description: String {
        "AppStoreServerAPIClient.Configuration(issuerID: \(issuerID), keyID: \(keyID), bundleID: \(bundleID), "
            + "baseURL: \(baseURL.absoluteString), timeout: \(timeout), retryPolicy: \(retryPolicy), "
            + "privateKey: <redacted>)"
    }

    public var debugDescription: String { description }
}
