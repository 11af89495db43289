import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// Posts webhook attempts with AsyncHTTPClient: `Content-Type: application/json`, the attempt's deadline, and the
/// client's read time-out for an answer that stalls half-way.
public struct HTTPClientWebhookTransport: WebhookTransport {
    let client: HTTPClient

    public init(client: HTTPClient) {
        self.client = client
    }

    /// A client for the delivery worker: up to `connectionsPerEndpoint` connections to one host, `timeout` to
    /// connect and between reads.
    public static func makeClient(connectionsPerEndpoint: Int, timeout: Duration) -> HTTPClient {
        var configuration = HTTPClient.Configuration(
            timeout: .init(connect: timeout.timeAmount, read: timeout.timeAmount),
            connectionPool: .init(
                idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: connectionsPerEndpoint))
        configuration.redirectConfiguration = .disallow
        // A refused connection fails the attempt at once: the retry schedule, not the pool, decides when to try again
        // (the pool would keep reconnecting until the attempt's deadline).
        configuration.connectionPool.retryConnectionEstablishment = false
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }

    /// One process-wide client for operators' test events (`POST /admin/v1/webhooks/endpoints/test`), which answer
    /// at once for an endpoint that refuses connections; like `HTTPClient.shared`, it lives as long as the process.
    public static let operatorsClient = makeClient(connectionsPerEndpoint: 2, timeout: .seconds(10))

    public func post(_ body: [UInt8], headers: [(name: String, value: String)], to url: URL, timeout: Duration) async
        -> WebhookPostResult
    {
        var request = HTTPClientRequest(url: url.absoluteString)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.headers.add(name: "User-Agent", value: "Purser-Webhooks/1")
        for header in headers { request.headers.add(name: header.name, value: header.value) }
        request.body = .bytes(ByteBuffer(bytes: body))
        do {
            let response = try await client.execute(request, timeout: timeout.timeAmount)
            // Read (and drop) what the receiver answered, so the connection can serve the next attempt.
            _ = try? await response.body.collect(upTo: 64 * 1024)
            let retryAfter = response.headers.first(name: "Retry-After").flatMap { Double($0) }
            return .answered(status: Int(response.status.code), retryAfterSeconds: retryAfter)
        } catch let error as HTTPClientError
            where error == .deadlineExceeded || error == .readTimeout || error == .connectTimeout
        {
            return .timedOut
        } catch {
            return .unreachable(String(String(describing: error).prefix(200)))
        }
    }
}

extension Duration {
    /// NIO's time amount for this duration.
    var timeAmount: TimeAmount {
        let (seconds, attoseconds) = components
        return .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }
}
