import ArgumentParser
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

/// One keep-alive HTTP/1.1 connection of the bench, used by one worker: a request is written, then its response read
/// whole, before the next. It does no URL parsing, pooling or tracing per request, so the client takes little of the
/// CPU it shares with the server on a small machine (a pooled client cost more per request than the server's route).
struct BenchConnection {
    private var responses: NIOAsyncChannelInboundStream<HTTPClientResponsePart>.AsyncIterator
    private let requests: NIOAsyncChannelOutboundWriter<HTTPClientRequestPart>
    private let host: String

    /// Opens a connection to `host:port`; use it inside `channel.executeThenClose` through `init(inbound:…)`.
    static func connect(host: String, port: Int) async throws
        -> NIOAsyncChannel<HTTPClientResponsePart, HTTPClientRequestPart>
    {
        try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelOption(.tcpOption(.tcp_nodelay), value: 1)
            .connect(host: host, port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHTTPClientHandlers()
                    return try NIOAsyncChannel<HTTPClientResponsePart, HTTPClientRequestPart>(
                        wrappingChannelSynchronously: channel)
                }
            }
    }

    init(
        inbound: NIOAsyncChannelInboundStream<HTTPClientResponsePart>,
        outbound: NIOAsyncChannelOutboundWriter<HTTPClientRequestPart>, host: String
    ) {
        responses = inbound.makeAsyncIterator()
        requests = outbound
        self.host = host
    }

    /// `GET path`; fails unless it answers 200.
    mutating func get(_ path: String) async throws {
        let (status, body) = try await send(.GET, path, user: nil, token: nil, json: nil)
        guard status == .ok else { throw ValidationError("\(path) answered \(status.code): \(String(buffer: body))") }
    }

    /// `POST path` with a JSON body as `user` (development authentication), or with the admin API's bearer `token`;
    /// decodes a 2xx answer.
    mutating func post<Response: Decodable>(
        _ path: String, user: String? = nil, token: String? = nil, json: ByteBuffer
    ) async throws -> Response {
        let (status, body) = try await send(.POST, path, user: user, token: token, json: json)
        guard status.code < 300 else {
            throw ValidationError("\(path) answered \(status.code): \(String(buffer: body))")
        }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return try decoder.decode(Response.self, from: Data(body.readableBytesView))
    }

    private mutating func send(
        _ method: HTTPMethod, _ path: String, user: String?, token: String?, json: ByteBuffer?
    ) async throws -> (HTTPResponseStatus, ByteBuffer) {
        var head = HTTPRequestHead(version: .http1_1, method: method, uri: path)
        head.headers.add(name: "Host", value: host)
        if let user { head.headers.add(name: "X-Purser-User", value: user) }
        if let token { head.headers.add(name: "Authorization", value: "Bearer \(token)") }
        var parts: [HTTPClientRequestPart] = [.head(head), .end(nil)]
        if let json {
            head.headers.add(name: "Content-Type", value: "application/json")
            head.headers.add(name: "Content-Length", value: String(json.readableBytes))
            parts = [.head(head), .body(.byteBuffer(json)), .end(nil)]
        }
        try await requests.write(contentsOf: parts)
        var status: HTTPResponseStatus?
        var body = ByteBuffer()
        while let part = try await responses.next() {
            switch part {
            case .head(let response): status = response.status
            case .body(var chunk): body.writeBuffer(&chunk)
            case .end:
                guard let status else { throw ValidationError("\(path): a response without a head") }
                return (status, body)
            }
        }
        throw ValidationError("\(path): the server closed the connection")
    }
}
