/// A request to the Purser server that did not produce an answer. Never a decision: the transaction stays
/// unfinished whatever the kind.
public struct PurserAPIError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure it was; none is a decision.
    public enum Kind: String, Sendable, Hashable {
        /// No HTTP answer: no connection, dropped connection, time-out.
        case network
        /// 5xx or 429: the server could not answer now.
        case unavailable
        /// Another 4xx: the server refused the request (its error code says why).
        case refused
        /// A 2xx body that is not what the API promises.
        case badResponse
        /// The app's credential could not be obtained.
        case unauthenticated
    }

    /// What kind of failure it was.
    public var kind: Kind
    /// The HTTP status, when there was an answer.
    public var status: Int?
    /// The server's stable error code, or one of ours (`network`, `server_unavailable`, `bad_response`).
    public var code: String
    /// What went wrong, for logs.
    public var message: String

    /// An error from its parts; public so an app's tests can make one.
    public init(kind: Kind, status: Int? = nil, code: String, message: String) {
        self.kind = kind
        self.status = status
        self.code = code
        self.message = message
    }

    /// Worth trying again later with the same request.
    public var isRetryable: Bool { kind == .network || kind == .unavailable }

    /// The code, the status and the message.
    public var description: String {
        "\(code)" + (status.map { " (HTTP \($0))" } ?? "") + ": \(message)"
    }
}
