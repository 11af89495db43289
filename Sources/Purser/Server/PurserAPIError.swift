/// A request to the Purser server that did not produce an answer. Never a decision: the transaction stays
/// unfinished whatever the kind.
public struct PurserAPIError: Error, Sendable, Hashable, CustomStringConvertible {
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

    public var kind: Kind
    public var status: Int?
    /// The server's stable error code, or one of ours (`network`, `server_unavailable`, `bad_response`).
    public var code: String
    public var message: String

    public init(kind: Kind, status: Int? = nil, code: String, message: String) {
        self.kind = kind
        self.status = status
        self.code = code
        self.message = message
    }

    /// Worth trying again later with the same request.
    public var isRetryable: Bool { kind == .network || kind == .unavailable }

    public var description: String {
        "\(code)" + (status.map { " (HTTP \($0))" } ?? "") + ": \(message)"
    }
}
