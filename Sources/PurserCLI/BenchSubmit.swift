import AppStoreSimulator
import AppStoreVerification
import ArgumentParser
import AsyncHTTPClient
import Foundation
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import PurserCore
import PurserServer
import PurserStorage
import ServiceLifecycle

extension Purser {
    /// `purser bench submit`: credited submissions per second over loopback HTTP, SQLite ledger, several clients.
    struct BenchSubmit: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "submit",
            abstract: "Credited StoreKit 2 submissions per second over loopback HTTP with the SQLite ledger.")

        @Option(help: "Number of purchases to submit.") var purchases = 2_000
        @Option(help: "Concurrent HTTP clients.") var clients = 8

        func validate() throws {
            guard purchases > 0, clients > 0 else {
                throw ValidationError("--purchases and --clients must be positive")
            }
        }

        func run() async throws {
            var logger = Logger(label: "purser.bench")
            logger.logLevel = .error
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("purser-bench-\(UUID())")
            defer { try? FileManager.default.removeItem(at: directory) }

            let authority = try SimulatorCertificateAuthority.generate(validity: .standard(now: Date()))
            let appStore = try SimulatedAppStore(signer: JWSSigner(authority: authority))
            let catalog = ProductCatalog([
                Product(id: "com.example.gold60", type: .consumable, grants: Grants(["gold": 60]))
            ])
            var settings = ServerConfiguration()
            settings.port = 0
            settings.bundleId = appStore.configuration.defaultBundleID
            settings.auth.mode = .development
            settings.reconciliation.intervalSeconds = 0
            let ledger = try await SQLiteLedgerStore.open(
                path: directory.appendingPathComponent("purser.sqlite").path, logger: logger)
            let assembly = try PurserAssembly(
                configuration: settings, catalog: catalog, store: ledger,
                appStore: try await .simulator(
                    appStore, serverAPI: SimulatedServerAPI(store: appStore),
                    configuration: settings, placement: .hosted(notifications: .kept)),
                logger: logger)
            let (portStream, portContinuation) = AsyncStream.makeStream(of: Int.self)
            let app = assembly.application(onServerRunning: { portContinuation.yield($0) })
            let group = ServiceGroup(configuration: .init(services: [app], logger: logger))

            try await withThrowingTaskGroup(of: Void.self) { tasks in
                tasks.addTask { try await group.run() }
                var ports = portStream.makeAsyncIterator()
                guard let port = await ports.next() else { throw ValidationError("the server did not start") }
                let base = "http://127.0.0.1:\(port)"
                let client = HTTPClient(
                    eventLoopGroupProvider: .singleton,
                    configuration: .init(
                        connectionPool: .init(
                            idleTimeout: .seconds(30),
                            concurrentHTTP1ConnectionsPerHostSoftLimit: clients)))
                do {
                    print("preparing \(purchases) orders and signed purchases…")
                    var bodies: [(user: String, body: Data)] = []
                    for index in 0..<purchases {
                        let user = "bench-user-\(index % 100)"
                        let order: OrderResponse = try await Self.post(
                            client, "\(base)/v1/orders", user: user,
                            body: CreateOrderRequest(productId: "com.example.gold60"))
                        let (_, jws) = try await appStore.purchase(
                            .init(
                                productId: "com.example.gold60",
                                appAccountToken: order.appAccountToken))
                        bodies.append(
                            (user, try JSONEncoder().encode(SubmitTransactionRequest(signedTransaction: jws))))
                    }
                    let prepared = bodies
                    print("submitting with \(clients) concurrent clients…")
                    let start = ContinuousClock.now
                    let delivered = try await withThrowingTaskGroup(of: Int.self) { workers in
                        for worker in 0..<clients {
                            workers.addTask {
                                var count = 0
                                for index in stride(from: worker, to: prepared.count, by: clients) {
                                    let decision: DecisionResponse = try await Self.post(
                                        client, "\(base)/v1/transactions", user: prepared[index].user,
                                        raw: prepared[index].body)
                                    if decision.outcome == .delivered { count += 1 }
                                }
                                return count
                            }
                        }
                        return try await workers.reduce(0, +)
                    }
                    let seconds = (ContinuousClock.now - start).microseconds / 1_000_000
                    let statistics = try await ledger.statistics()
                    print(
                        String(
                            format:
                                "submitted %d purchases in %.2f s with %d clients over loopback HTTP (SQLite, synchronous=FULL)",
                            purchases, seconds, clients))
                    print(String(format: "credited submissions per second: %.0f", Double(delivered) / seconds))
                    print(
                        "delivered \(delivered), ledger credited \(statistics.creditedTransactions), grants \(statistics.grants)"
                    )
                    try await client.shutdown()
                    guard delivered == purchases, statistics.creditedTransactions == purchases else {
                        throw ValidationError("not every purchase was credited exactly once")
                    }
                } catch {
                    try? await client.shutdown()
                    await group.triggerGracefulShutdown()
                    throw error
                }
                await group.triggerGracefulShutdown()
                try await tasks.waitForAll()
            }
        }

        static func post<Response: Decodable>(
            _ client: HTTPClient, _ url: String, user: String, body: some Encodable
        ) async throws -> Response {
            try await post(client, url, user: user, raw: try JSONEncoder().encode(body))
        }

        static func post<Response: Decodable>(_ client: HTTPClient, _ url: String, user: String, raw: Data) async throws
            -> Response
        {
            var request = HTTPClientRequest(url: url)
            request.method = .POST
            request.headers.add(name: "Content-Type", value: "application/json")
            request.headers.add(name: "X-Purser-User", value: user)
            request.body = .bytes(ByteBuffer(bytes: raw))
            let response = try await client.execute(request, timeout: .seconds(30))
            let body = try await response.body.collect(upTo: 1 << 20)
            guard response.status.code < 300 else {
                throw ValidationError("\(url) answered \(response.status.code): \(String(buffer: body))")
            }
            let decoder = JSONDecoder()
            decoder.dateDecodingStrategy = .iso8601
            return try decoder.decode(Response.self, from: Data(body.readableBytesView))
        }
    }
}
