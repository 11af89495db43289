import AppStoreSimulator
import AppStoreVerification
import AsyncHTTPClient
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import NIOHTTP1
import PurserChaos
import PurserCore
import PurserStorage
import Synchronization

/// A real Purser server (the chaos harness's `ChaosServer`: SQLite ledger, in-process App Store simulator, Apple's
/// notifications held back) on a loopback port, reached through a `FaultyNetwork` in front of it, so tests can make
/// submissions fail before or after the server acted.
struct LiveServer: Sendable {
    let appStore: SimulatedAppStore
    let store: any LedgerStore
    let network: FaultyNetwork
    let clock: ChaosClock
    let directory: URL
    /// Where the SDK sends its requests (the faulty network's port).
    let url: URL

    static func run(_ body: @Sendable (LiveServer) async throws -> Void) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("purser-sdk-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        try await ChaosServer.run(directory: directory, clock: ChaosClock(), deliversNotifications: false) { server in
            let network = FaultyNetwork(upstream: server.url)
            try await network.run { port in
                try await body(
                    LiveServer(
                        appStore: server.appStore, store: server.store, network: network,
                        clock: server.clock, directory: directory,
                        url: URL(string: "http://127.0.0.1:\(port)")!))
            }
        }
    }

    /// What the ledger holds for `user`.
    func balance(_ user: String) async throws -> Int64 {
        try await store.balances(of: UserID(user)).values.reduce(0, +)
    }
}

/// A reverse proxy between the SDK and the server that can refuse submissions (server unreachable) or lose the
/// answer after the server acted (response lost).
final class FaultyNetwork: Sendable {
    enum Fault: Sendable {
        /// Answer 503 without reaching the server.
        case unreachable
        /// Forward, let the server decide, then answer 503 instead.
        case responseLost
    }

    let upstream: URL
    private let faults = Mutex<[String: [Fault]]>([:])
    private let submissions = Mutex<Int>(0)
    private let statuses = Mutex<[String: [Int]]>([:])
    private let bodies = Mutex<[ByteBuffer]>([])

    init(upstream: URL) { self.upstream = upstream }

    /// Faults for the next POST requests to `path` (submissions by default), in order.
    func inject(_ faults: [Fault], on path: String = "/v1/transactions") {
        self.faults.withLock { $0[path, default: []].append(contentsOf: faults) }
    }
    /// Submissions that passed through (faulted or not).
    var submissionCount: Int { submissions.withLock { $0 } }
    /// What the SDK submitted (`POST /v1/transactions` bodies), in order.
    var submitted: [SubmitTransactionRequest] {
        get throws {
            try bodies.withLock { $0 }.map {
                try JSONDecoder().decode(SubmitTransactionRequest.self, from: Data($0.readableBytesView))
            }
        }
    }
    /// The HTTP statuses the server answered to requests for `path`, in order.
    func answers(to path: String) -> [Int] { statuses.withLock { $0[path] ?? [] } }

    func run(_ body: @Sendable (Int) async throws -> Void) async throws {
        let router = Router()
        let client = HTTPClient(eventLoopGroupProvider: .singleton)
        router.on("**", method: .get) { request, _ in try await self.forward(request, client: client) }
        router.on("**", method: .post) { request, _ in try await self.forward(request, client: client) }
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        do {
            try await app.test(.live) { proxy in try await body(proxy.port!) }
        } catch {
            try? await client.shutdown()
            throw error
        }
        try await client.shutdown()
    }

    private func forward(_ request: Request, client: HTTPClient) async throws -> Response {
        var fault: Fault?
        if request.method == .post {
            fault = faults.withLock {
                $0[request.uri.path]?.isEmpty == false ? $0[request.uri.path]?.removeFirst() : nil
            }
        }
        if request.method == .post, request.uri.path == "/v1/transactions" { submissions.withLock { $0 += 1 } }
        if case .unreachable = fault { return Response(status: .serviceUnavailable) }
        var outbound = HTTPClientRequest(url: upstream.absoluteString + request.uri.description)
        outbound.method = .init(rawValue: request.method.rawValue)
        for field in request.headers where field.name.canonicalName != "host" && field.name != .contentLength {
            outbound.headers.add(name: field.name.rawName, value: field.value)
        }
        let body = try await request.body.collect(upTo: 1 << 22)
        if request.method == .post, request.uri.path == "/v1/transactions" { bodies.withLock { $0.append(body) } }
        outbound.body = .bytes(body)
        let response = try await client.execute(outbound, timeout: .seconds(10))
        let answer = try await response.body.collect(upTo: 1 << 22)
        if case .responseLost = fault { return Response(status: .serviceUnavailable) }
        statuses.withLock { $0[request.uri.path, default: []].append(Int(response.status.code)) }
        var headers = HTTPFields()
        for (name, value) in response.headers where name.lowercased() != "content-length" {
            if let field = HTTPField.Name(name) { headers.append(HTTPField(name: field, value: value)) }
        }
        return Response(
            status: .init(code: Int(response.status.code)), headers: headers,
            body: .init(byteBuffer: answer))
    }
}
