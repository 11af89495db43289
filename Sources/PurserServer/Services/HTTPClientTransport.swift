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

    public func post(_ url: URL, body: Data, timeout: Duration) async throws -> AppStoreHTTPResponse {
        var request = HTTPClientRequest(url: url.absoluteString)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.body = .bytes(ByteBuffer(bytes: body))
        let nanoseconds = timeout.components.seconds * 1_000_000_000 + timeout.components.attoseconds / 1_000_000_000
        let response = try await client.execute(request, timeout: .nanoseconds(nanoseconds))
        let bytes = try await response.body.collect(upTo: 16 * 1024 * 1024)
        return AppStoreHTTPResponse(status: Int(response.status.code), body: Data(bytes.readableBytesView))
    }
}
