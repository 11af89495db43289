import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import Purser

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The apps' HTTP in a chaos run: real HTTP over loopback, through one shared AsyncHTTPClient with a connection
/// pool. Hundreds of simulated apps each with their own URLSession spend the machine on Foundation's networking
/// threads on Linux instead of on Purser.
struct AsyncHTTPClientTransport: PurserHTTPTransport {
    let client: HTTPClient
    let timeout: TimeAmount

    func send(_ request: URLRequest) async throws -> (body: Data, status: Int) {
        guard let url = request.url else { throw ChaosError(.invalidConfiguration, "a request without a URL") }
        var outgoing = HTTPClientRequest(url: url.absoluteString)
        outgoing.method = HTTPMethod(rawValue: request.httpMethod ?? "GET")
        for (name, value) in request.allHTTPHeaderFields ?? [:] { outgoing.headers.add(name: name, value: value) }
        if let body = request.httpBody { outgoing.body = .bytes(ByteBuffer(bytes: body)) }
        let response = try await client.execute(outgoing, timeout: timeout)
        let bytes = try await response.body.collect(upTo: 4 * 1024 * 1024)
        return (Data(bytes.readableBytesView), Int(response.status.code))
    }

    /// Runs `body` with a transport whose pool allows `connections` at once, and shuts the client down after.
    static func with<T: Sendable>(
        connections: Int, timeout: Duration,
        _ body: (AsyncHTTPClientTransport) async throws -> T
    ) async throws -> T {
        let client = HTTPClient(
            eventLoopGroupProvider: .singleton,
            configuration: .init(
                connectionPool: .init(
                    idleTimeout: .seconds(30),
                    concurrentHTTP1ConnectionsPerHostSoftLimit: connections)))
        do {
            let (seconds, attoseconds) = timeout.components
            let amount = TimeAmount.nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
            let result = try await body(AsyncHTTPClientTransport(client: client, timeout: amount))
            try await client.shutdown()
            return result
        } catch {
            try? await client.shutdown()
            throw error
        }
    }
}
