import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// How `PurserAPIClient` moves one request to the server and back. Apps use `URLSessionTransport`; a program that
/// already runs an HTTP client (a load generator, a server-side tool) can bring its own.
public protocol PurserHTTPTransport: Sendable {
    /// Sends `request`; returns the body and the HTTP status. Throws when no answer arrived (a network failure or
    /// a time-out), which the client reports as a network error: the transaction stays unfinished.
    func send(_ request: URLRequest) async throws -> (body: Data, status: Int)
}

/// The transport of an app: an ephemeral `URLSession` with a per-request time-out.
public final class URLSessionTransport: PurserHTTPTransport {
    private let session: URLSession

    /// A transport whose requests time out after `timeout` seconds.
    public init(timeout: TimeInterval = 15) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.timeoutIntervalForResource = timeout * 2
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        self.session = URLSession(configuration: configuration)
    }

    deinit {
        session.finishTasksAndInvalidate()
    }

    /// Sends `request` with the shared session; throws when no answer arrived.
    public func send(_ request: URLRequest) async throws -> (body: Data, status: Int) {
        let (data, response) = try await session.data(for: request)
        guard let status = (response as? HTTPURLResponse)?.statusCode else {
            throw PurserAPIError(kind: .badResponse, code: "bad_response", message: "not an HTTP response")
        }
        return (data, status)
    }
}
