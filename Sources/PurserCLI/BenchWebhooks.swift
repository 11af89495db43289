import AppStoreSimulator
import ArgumentParser
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import PurserCore
import PurserServer
import PurserStorage
import PurserWebhooks
import ServiceLifecycle
import Synchronization

extension Purser {
    /// `purser bench webhooks`: events delivered per second by the delivery worker to a local receiver.
    struct BenchWebhooks: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "webhooks",
            abstract: "Webhook events delivered per second to a local receiver (SQLite ledger, the serve worker).")

        @Option(help: "Events in the outbox before delivery starts.") var events = 10_000
        @Option(help: "Attempts in flight at once (webhooks.concurrency).") var concurrency = 16

        func validate() throws {
            guard events > 0, concurrency > 0 else {
                throw ValidationError("--events and --concurrency must be positive")
            }
        }

        func run() async throws {
            var logger = Logger(label: "purser.bench")
            logger.logLevel = .error
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("purser-bench-\(UUID())")
            defer { try? FileManager.default.removeItem(at: directory) }
            let secret = WebhookSecret.generate()
            let receiver = Receiver(verifier: WebhookVerifier(secrets: [secret]))
            let (receiverPorts, receiverListening) = AsyncStream.makeStream(of: Int.self)
            let receiverApp = receiver.application { receiverListening.yield($0) }
            let receiverGroup = ServiceGroup(configuration: .init(services: [receiverApp], logger: logger))
            try await withThrowingTaskGroup(of: Void.self) { tasks in
                tasks.addTask { try await receiverGroup.run() }
                var iterator = receiverPorts.makeAsyncIterator()
                guard let receiverPort = await iterator.next() else { throw ValidationError("no receiver") }
                try await measure(
                    receiver: receiver, url: "http://127.0.0.1:\(receiverPort)/purser", secret: secret,
                    directory: directory, logger: logger)
                await receiverGroup.triggerGracefulShutdown()
                try await tasks.waitForAll()
            }
        }

        private func measure(receiver: Receiver, url: String, secret: WebhookSecret, directory: URL, logger: Logger)
            async throws
        {
            let ledger = try await SQLiteLedgerStore.open(
                path: directory.appendingPathComponent("purser.sqlite").path, logger: logger)
            try await ledger.migrate()
            print("writing \(events) credits, each with its outbox event…")
            let product = ProductDefinition(id: "com.example.gold60", type: .consumable, grants: Grants(["gold": 60]))
            for index in 0..<events {
                let user = UserID(rawValue: "bench-user-\(index % 500)")
                let order = Order(
                    id: .timeOrdered(at: Date()), userID: user, productID: product.id, quantity: 1, createdAt: Date())
                try await ledger.createOrder(order)
                let transaction = AppleTransaction(
                    transactionID: String(3_000_000_000_000_000 + index), originalTransactionID: String(index),
                    bundleID: "com.example.bench", productID: product.id, type: "Consumable", quantity: 1,
                    purchaseDate: Date(), appAccountToken: order.id, environment: .sandbox)
                _ = try await ledger.settle(
                    Submission(transaction: transaction, assessment: .creditable(product), source: .client(user)),
                    now: Date())
            }
            var settings = ServerConfiguration()
            settings.port = 0
            settings.auth.mode = .development
            settings.reconciliation.intervalSeconds = 0
            settings.webhooks.endpoints = [.init(url: url, secrets: [secret.serialized])]
            settings.webhooks.concurrency = concurrency
            settings.webhooks.pollIntervalSeconds = 0.02
            let appStore = try SimulatedAppStore(
                signer: JWSSigner(authority: SimulatorCertificateAuthority.generate(validity: .standard(now: Date()))))
            let assembly = try PurserAssembly(
                configuration: settings, catalog: ProductCatalog([product]), store: ledger,
                appStore: try await .simulator(
                    appStore, serverAPI: SimulatedServerAPI(store: appStore), configuration: settings,
                    placement: .hosted(notifications: .kept)),
                logger: logger)
            let group = ServiceGroup(configuration: .init(services: [assembly.application()], logger: logger))
            print("delivering with \(concurrency) attempts in flight…")
            let start = ContinuousClock.now
            try await withThrowingTaskGroup(of: Void.self) { tasks in
                tasks.addTask { try await group.run() }
                var summary = try await ledger.webhookSummary()
                while summary.delivered < events, ContinuousClock.now - start < .seconds(600) {
                    try await Task.sleep(for: .milliseconds(20))
                    summary = try await ledger.webhookSummary()
                }
                let seconds = (ContinuousClock.now - start).microseconds / 1_000_000
                await group.triggerGracefulShutdown()
                try await tasks.waitForAll()
                let (received, distinct) = receiver.counts
                print(
                    String(
                        format: "delivered %d events in %.2f s: %.0f events per second (goal ≥ 2,000)",
                        summary.delivered, seconds, Double(summary.delivered) / seconds))
                print(
                    "measured against: a Hummingbird receiver in this process on 127.0.0.1 that verifies every "
                        + "signature with PurserWebhooks and answers 204; the serve worker with "
                        + "webhooks.concurrency \(concurrency), SQLite ledger (WAL, synchronous=FULL), one endpoint")
                print("receiver: \(received) posts, \(distinct) distinct events, \(summary.retries) retries")
                guard summary.delivered == events, distinct == events else {
                    throw ValidationError("not every event was delivered (\(summary))")
                }
            }
        }
    }
}

extension Purser.BenchWebhooks {
    /// The game backend of the benchmark: verifies each post and counts distinct `webhook-id`s.
    final class Receiver: Sendable {
        let verifier: WebhookVerifier
        private let seen = Mutex((posts: 0, ids: Set<String>()))

        init(verifier: WebhookVerifier) { self.verifier = verifier }

        var counts: (posts: Int, distinct: Int) { seen.withLock { ($0.posts, $0.ids.count) } }

        func application(onServerRunning: @escaping @Sendable (Int) async -> Void) -> some ApplicationProtocol {
            let router = Router()
            router.post("purser") { request, _ -> HTTPResponse.Status in
                let body = try await request.body.collect(upTo: 1 << 20)
                let verified = try self.verifier.verify(
                    body: body.readableBytesView, header: { request.headers[HTTPField.Name($0)!] })
                self.seen.withLock {
                    $0.posts += 1
                    $0.ids.insert(verified.id)
                }
                return .noContent
            }
            return Application(
                router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                onServerRunning: { await onServerRunning($0.localAddress?.port ?? 0) })
        }
    }
}
