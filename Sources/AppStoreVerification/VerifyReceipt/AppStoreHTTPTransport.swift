import Foundation

/// How Purser reaches the App Store over HTTP. Two sides: a real HTTP client (in the server) and the simulator
/// answering in-process. Throwing means no answer arrived (connection refused, time-out).
public protocol AppStoreHTTPTransport: Sendable {
    func post(_ url: URL, body: Data, timeout: Duration) async throws -> AppStoreHTTPResponse
}

/// An HTTP answer: the status and the body.
public struct AppStoreHTTPResponse: Sendable, Hashable {
    public var status: Int
    public var body: Data
    public init(status: Int, body: Data) {
        self.status = status
        self.body = body
    }
}
