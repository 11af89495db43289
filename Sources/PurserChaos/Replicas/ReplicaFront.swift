import AsyncHTTPClient
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import NIOHTTP1
import Synchronization

/// The load balancer in front of the replicas: each request goes to the next replica that is up, round robin, the
/// way a load balancer with health checks routes. The harness marks a replica down before it kills it and up once
/// it answers again; a request already on its way to a replica that dies gets a 502, which a client takes as "no
/// decision" and retries. The apps' network faults (`NetworkFaults`, armed per device) apply here.
final class ReplicaFront: Sendable {
    private let faults: NetworkFaults
    private let client: HTTPClient
    private let state: Mutex<State>

    private struct State {
        /// Each replica's address while it is up.
        var upstreams: [URL?]
        var next = 0
    }

    init(replicas: Int, faults: NetworkFaults, client: HTTPClient) {
        self.faults = faults
        self.client = client
        self.state = Mutex(State(upstreams: Array(repeating: nil, count: replicas)))
    }

    /// Stops sending new requests to replica `index` (it is about to be killed).
    func markDown(_ index: Int) { state.withLock { $0.upstreams[index] = nil } }

    /// Sends requests to replica `index` again, at `url` (a restarted replica may listen on another port).
    func markUp(_ index: Int, at url: URL) { state.withLock { $0.upstreams[index] = url } }

    /// The application that listens for the apps, the simulator's notifications and the harness.
    func application(onServerRunning: @escaping @Sendable (Int) async -> Void) -> some ApplicationProtocol {
        let router = Router()
        for method in [HTTPRequest.Method.get, .post, .put] {
            router.on("**", method: method) { request, _ in try await self.forward(request) }
        }
        return Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { await onServerRunning($0.localAddress?.port ?? 0) })
    }

    private func chooseUpstream() -> URL? {
        state.withLock { state in
            for _ in state.upstreams.indices {
                let index = state.next % state.upstreams.count
                state.next += 1
                if let url = state.upstreams[index] { return url }
            }
            return nil
        }
    }

    private func forward(_ request: Request) async throws -> Response {
        var fault: NetworkFaults.Fault?
        if request.method == .post, request.uri.path == "/v1/transactions",
            let device = request.headers[NetworkFaults.deviceHeader]
        {
            fault = faults.next(for: device)
        }
        if fault == .requestLost { return Response(status: .serviceUnavailable) }
        guard let upstream = chooseUpstream() else { return Response(status: .serviceUnavailable) }
        var outbound = HTTPClientRequest(url: upstream.absoluteString + request.uri.description)
        outbound.method = .init(rawValue: request.method.rawValue)
        for field in request.headers where field.name.canonicalName != "host" && field.name != .contentLength {
            outbound.headers.add(name: field.name.rawName, value: field.value)
        }
        outbound.body = .bytes(try await request.body.collect(upTo: 1 << 22))
        let status: Int
        let headers: HTTPFields
        let answer: ByteBuffer
        do {
            let response = try await client.execute(outbound, timeout: .seconds(15))
            answer = try await response.body.collect(upTo: 1 << 22)
            status = Int(response.status.code)
            var fields = HTTPFields()
            for (name, value) in response.headers where name.lowercased() != "content-length" {
                if let field = HTTPField.Name(name) { fields.append(HTTPField(name: field, value: value)) }
            }
            headers = fields
        } catch {
            return Response(status: .badGateway)
        }
        if fault == .responseLost { return Response(status: .serviceUnavailable) }
        return Response(status: .init(code: status), headers: headers, body: .init(byteBuffer: answer))
    }
}
