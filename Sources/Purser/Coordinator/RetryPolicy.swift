import PurserCore

/// Exponential backoff with jitter for submissions that got no decision (network errors, 5xx).
public struct RetryPolicy: Sendable, Hashable {
    /// Attempts per transaction in one recovery pass; after that it waits for the next trigger.
    public var maxAttempts: Int
    /// The wait before the second attempt; each later wait doubles, with jitter.
    public var baseDelay: Duration
    /// The longest wait between two attempts.
    public var maxDelay: Duration

    /// A policy; the defaults retry 5 times, from half a second up to 30 seconds.
    public init(maxAttempts: Int = 5, baseDelay: Duration = .milliseconds(500), maxDelay: Duration = .seconds(30)) {
        self.maxAttempts = maxAttempts
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
    }

    /// The wait after failed attempt `attempt` (0-based): `baseDelay · 2^attempt`, capped, scaled by `jitter`
    /// (drawn from 0.5..<1, so clients that failed together do not retry together).
    public func delay(afterAttempt attempt: Int, jitter: Double) -> Duration {
        ExponentialBackoff(base: baseDelay, maximum: maxDelay).delay(afterFailures: attempt + 1) * jitter
    }
}
