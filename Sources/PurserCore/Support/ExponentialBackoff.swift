/// Exponential backoff: `base × 2^(failures − 1)`, capped at `maximum`. Shared by every retry loop in Purser (the
/// App Store Server API client on the server, submissions in the client SDK).
public struct ExponentialBackoff: Hashable, Sendable {
    public var base: Duration
    public var maximum: Duration

    public init(base: Duration, maximum: Duration) {
        self.base = base
        self.maximum = maximum
    }

    /// The wait after the `failures`-th failure in a row (1 for the first).
    public func delay(afterFailures failures: Int) -> Duration {
        let doublings = min(max(failures - 1, 0), 30)
        return min(base * (1 << doublings), maximum)
    }
}
