import AppStoreVerification
import AsyncHTTPClient
import Foundation
import Metrics
import NIOCore
import NIOHTTP1
import Tracing

/// The App Store transport over real HTTP(S), with AsyncHTTPClient. Every call (to Apple, or to a simulator's Apple
/// endpoints) is counted in `purser_appstore_requests_total` by endpoint and outcome and, with tracing on, is a
/// client span with its endpoint, status and attempt.
public struct HTTPClientTransport: AppStoreHTTPTransport {
    let client: HTTPClient
    /// Whether calls are counted and spanned: not for the hosted simulator posting its notifications to this very
    /// server, which is the App Store calling Purser, not Purser calling Apple.
    let recordsCalls: Bool

    public init(client: HTTPClient = .shared, recordsCalls: Bool = true) {
        self.client = client
        self.recordsCalls = recordsCalls
    }

    public func send(_ request: AppStoreHTTPRequest) async throws -> AppStoreHTTPResponse {
        guard recordsCalls else { return try await exchange(request) }
        let endpoint = Self.endpoint(of: request.url)
        return try await withSpan(PurserTracing.SpanName.appStoreRequest, ofKind: .client) { span in
            span.attributes["http.request.method"] = request.method
            span.attributes["url.template"] = endpoint
            span.attributes["server.address"] = request.url.host
            span.attributes["purser.appstore.attempt"] = request.attempt
            do {
                let response = try await exchange(request)
                span.attributes["http.response.status_code"] = response.status
                if response.status >= 500 { span.setStatus(.init(code: .error)) }
                Self.count(endpoint: endpoint, outcome: Self.outcome(of: response.status))
                return response
            } catch {
                Self.count(endpoint: endpoint, outcome: "unreachable")
                throw error
            }
        }
    }

    func exchange(_ request: AppStoreHTTPRequest) async throws -> AppStoreHTTPResponse {
        var outgoing = HTTPClientRequest(url: request.url.absoluteString)
        outgoing.method = HTTPMethod(rawValue: request.method)
        for (name, value) in request.headers { outgoing.headers.add(name: name, value: value) }
        if let body = request.body { outgoing.body = .bytes(ByteBuffer(bytes: body)) }
        let (seconds, attoseconds) = request.timeout.components
        let response = try await client.execute(
            outgoing, timeout: .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000))
        let bytes = try await response.body.collect(upTo: 16 * 1024 * 1024)
        var headers: [String: String] = [:]
        for header in response.headers { headers[header.name] = header.value }
        return AppStoreHTTPResponse(
            status: Int(response.status.code), headers: headers, body: Data(bytes.readableBytesView))
    }

    /// `ok` (an answer below 400), `rejected` (4xx: the call was refused or named nothing Apple knows) or `failed`
    /// (5xx); a call with no answer at all is `unreachable`.
    static func outcome(of status: Int) -> String {
        switch status {
        case ..<400: "ok"
        case 400..<500: "rejected"
        default: "failed"
        }
    }

    /// The URL's path with each identifier (a segment of digits, a UUID, or any segment longer than 24 characters)
    /// as `{id}`: `/inApps/v2/history/{id}`, so a label's values stay few.
    static func endpoint(of url: URL) -> String {
        let segments = url.path.split(separator: "/", omittingEmptySubsequences: false).map { segment in
            segment.allSatisfy(\.isNumber) && !segment.isEmpty || UUID(uuidString: String(segment)) != nil
                || segment.count > 24 ? "{id}" : String(segment)
        }
        let path = segments.joined(separator: "/")
        return path.isEmpty ? "/" : path
    }

    static func count(endpoint: String, outcome: String) {
        Counter(label: PurserMetrics.Name.appStoreRequests, dimensions: [("endpoint", endpoint), ("outcome", outcome)])
            .increment()
    }
}
