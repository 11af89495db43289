import Foundation

/// How the delivery worker posts one attempt: a protocol so tests can count and break posts; the server uses
/// `HTTPClientWebhookTransport` (AsyncHTTPClient).
public protocol WebhookTransport: Sendable {
    /// POSTs `body` as JSON with `headers` to `url`; never throws: a failure is a result.
    func post(_ body: [UInt8], headers: [(name: String, value: String)], to url: URL, timeout: Duration) async
        -> WebhookPostResult
}

/// What one post got.
public enum WebhookPostResult: Sendable, Hashable, CustomStringConvertible {
    /// An answer, with `Retry-After` in seconds when the receiver sent one.
    case answered(status: Int, retryAfterSeconds: Double?)
    /// No answer in time.
    case timedOut
    /// No answer at all (connection refused or reset, DNS, TLS), described.
    case unreachable(String)

    /// A 2xx answer.
    public var isSuccess: Bool {
        if case .answered(let status, _) = self { return (200..<300).contains(status) }
        return false
    }

    public var description: String {
        switch self {
        case .answered(let status, _): "HTTP \(status)"
        case .timedOut: "timed out"
        case .unreachable(let why): "unreachable: \(why)"
        }
    }
}
