import AppStoreVerification
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// The App Store transport over real HTTP(S), with AsyncHTTPClient.
public struct HTTPClientTransport: AppStoreHTTPTransport {
    let client: HTTPClient

    public init(client: HTTPClient = .shared) {
        self.client = client
    }

    public func send(_ request: AppStoreHTTPRequest) async throws -> AppStoreHTTPResponse {
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
}
