import Foundation

/// How Purser reaches the App Store over HTTP. Two sides: a real HTTP client (in the server) and the simulator
/// answering in-process. Throwing means no answer arrived (connection refused, time-out).
public protocol AppStoreHTTPTransport: Sendable {
    func send(_ request: AppStoreHTTPRequest) async throws -> AppStoreHTTPResponse
}

/// One HTTP request to the App Store.
public struct AppStoreHTTPRequest: Sendable, Hashable {
    public var method: String
    public var url: URL
    /// Header name → value (for example `Authorization`).
    public var headers: [String: String]
    public var body: Data?
    public var timeout: Duration
    /// Which try of one call this is (1 for the first; a retry after an error or a 5xx is 2, …): a transport that
    /// records its calls (the server's metrics and spans) shows the retries.
    public var attempt: Int

    public init(
        method: String, url: URL, headers: [String: String] = [:], body: Data? = nil, timeout: Duration,
        attempt: Int = 1
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.timeout = timeout
        self.attempt = attempt
    }
}

/// An HTTP answer: the status, the headers that matter (for example `Retry-After`) and the body.
public struct AppStoreHTTPResponse: Sendable, Hashable {
    public var status: Int
    public var headers: [String: String]
    public var body: Data

    public init(status: Int, headers: [String: String] = [:], body: Data) {
        self.status = status
        self.headers = headers
        self.body = body
    }
}

extension AppStoreHTTPTransport {
    /// A JSON POST without authentication, as `verifyReceipt` takes it.
    public func post(_ url: URL, body: Data, timeout: Duration) async throws -> AppStoreHTTPResponse {
        try await send(
            AppStoreHTTPRequest(
                method: "POST", url: url, headers: ["Content-Type": "application/json"],
                body: body, timeout: timeout))
    }
}
