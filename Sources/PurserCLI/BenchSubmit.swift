import AppStoreSimulator
import AppStoreVerification
import ArgumentParser
import Foundation
import Logging
import NIOCore
import PurserCore
import PurserServer
import PurserStorage

extension Purser {
    /// `purser bench submit`: credited submissions per second over loopback HTTP with real signed transactions, and,
    /// in the same run through the same client at the same concurrency, the rate of a trivial route (`GET /health`),
    /// so the ratio says what the decision path costs on top of HTTP on whatever machine runs it.
    struct BenchSubmit: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "submit",
            abstract: "Credited StoreKit 2 submissions per second over loopback HTTP, against GET /health.")

        @Option(help: "Number of purchases to submit.") var purchases = 20_000
        @Option(help: "Concurrent HTTP clients (one connection each).") var clients = 8
        @Option(help: "Settled purchases written into the ledger (through the store, not HTTP) before measuring.")
        var preload = 0
        @Option(help: "GET /health requests, half measured before the submissions and half after.")
        var healthRequests = 20_000
        @OptionGroup var ledger: BenchLedgerOptions
        @Option(help: "Servers in this process on the one ledger; the clients' connections alternate between them.")
        var replicas = 1
        @Option(help: "The servers' event-loop threads (http.threads); 0: one per core.")
        var threads = 0
        @Option(
            name: .customLong("otlp-endpoint"),
            help: "Trace every request and export the spans to this OTLP/HTTP collector (tracing.otlp.endpoint).")
        var otlpEndpoint: String?

        func validate() throws {
            guard purchases > 0, clients > 0, healthRequests >= 2 else {
                throw ValidationError("--purchases and --clients must be positive, --health-requests at least 2")
            }
            guard preload >= 0 else { throw ValidationError("--preload cannot be negative") }
            guard replicas > 0 else { throw ValidationError("--replicas must be positive") }
            guard (0...1024).contains(threads) else { throw ValidationError("--threads must be 0 to 1024") }
        }

        func run() async throws {
            let logger = {
                var logger = Logger(label: "purser.bench")
                logger.logLevel = .error
                return logger
            }()
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("purser-bench-\(UUID())")
            defer { try? FileManager.default.removeItem(at: directory) }
            let authority = try SimulatorCertificateAuthority.generate(validity: .standard(now: Date()))
            let appStore = try SimulatedAppStore(signer: JWSSigner(authority: authority))
            let product = ProductDefinition(id: "com.example.gold60", type: .consumable, grants: Grants(["gold": 60]))
            let plan = self
            try await ledger.withDatabase(logger: logger) { url in
                let settings = Self.settings(
                    directory: directory, databaseURL: url, bundleID: appStore.configuration.defaultBundleID,
                    threads: plan.threads, otlpEndpoint: plan.otlpEndpoint)
                try settings.tracing.check()
                let tracing = try PurserTracing.bootstrap(settings.tracing, logger: logger)
                if let url = settings.tracing.tracesURL { print("tracing: every request's spans to \(url)") }
                // The bench's own store on the ledger: it preloads, and checks the figures at the end.
                let store = try await settings.openLedger(logger: logger)
                try await store.whileRunning {
                    try await store.migrate()
                    print("ledger: \(plan.ledgerName)")
                    try await Self.withServers(
                        plan.replicas, settings: settings, appStore: appStore, catalog: ProductCatalog([product]),
                        logger: logger, alongside: tracing
                    ) { ports, ledgers in
                        let load = BenchLoad(host: "127.0.0.1", ports: ports, clients: plan.clients, ledgers: ledgers)
                        try await plan.measureRounds(load, appStore: appStore, product: product, store: store)
                    }
                }
            }
        }

        /// One measured round; with `--preload`, two in the same run, paired on the same machine and servers: the
        /// empty ledger, then the ledger after `--preload` settled purchases were written into it.
        func measureRounds(
            _ load: BenchLoad, appStore: SimulatedAppStore, product: ProductDefinition, store: any LedgerStore
        )
            async throws
        {
            guard preload > 0 else {
                _ = try await measure(load, appStore: appStore, product: product, store: store, round: 1)
                return
            }
            print("round 1: the empty ledger")
            let empty = try await measure(load, appStore: appStore, product: product, store: store, round: 1)
            let seconds = try await Self.fillLedger(
                preload, into: store, product: product, bundleID: appStore.configuration.defaultBundleID,
                environment: appStore.configuration.defaultEnvironment)
            print(
                String(
                    format: "preloaded %d settled purchases in %.1f s (%.0f/s)", preload, seconds,
                    Double(preload) / seconds))
            print("round 2: the ledger preloaded with \(preload)")
            let filled = try await measure(load, appStore: appStore, product: product, store: store, round: 2)
            print(
                String(
                    format: "preloaded vs empty ledger: credited/s %+.1f%%, ratio credited/health %+.1f%%, "
                        + "CPU per credited submission %+.1f%%", 100 * (filled.credited / empty.credited - 1),
                    100 * (filled.ratio / empty.ratio - 1), 100 * (filled.cpu / empty.cpu - 1)))
        }

        /// Prepares the purchases, measures `/health` around the submissions, prints the figures and checks that
        /// every purchase was credited exactly once. `round` counts the rounds measured so far, this one included.
        func measure(
            _ load: BenchLoad, appStore: SimulatedAppStore, product: ProductDefinition, store: any LedgerStore,
            round: Int
        ) async throws -> (credited: Double, ratio: Double, cpu: Double) {
            print("preparing \(purchases) orders (over HTTP) and signed purchases…")
            let orderBody = ByteBuffer(bytes: try JSONEncoder().encode(CreateOrderRequest(productId: product.id)))
            let prepared = try await load.run("orders", count: purchases) { connection, index in
                let order: OrderResponse = try await connection.post(
                    "/v1/orders", user: Self.user(index), json: orderBody)
                let (_, jws) = try await appStore.purchase(
                    .init(productId: product.id, appAccountToken: order.appAccountToken))
                return ByteBuffer(bytes: try JSONEncoder().encode(SubmitTransactionRequest(signedTransaction: jws)))
            }.results
            _ = try await load.run("warm-up", count: clients * 50) { connection, _ in
                try await connection.get("/health")
            }

            print("measuring with \(clients) concurrent clients…")
            let before = try await load.run("GET /health", count: healthRequests / 2) { connection, _ in
                try await connection.get("/health")
            }
            let written = load.writeCounts()
            let submitted = try await load.run("POST /v1/transactions", count: purchases) { connection, index in
                let decision: DecisionResponse = try await connection.post(
                    "/v1/transactions", user: Self.user(index), json: prepared[index])
                return decision.outcome == .delivered
            }
            let after = try await load.run("GET /health", count: healthRequests - healthRequests / 2) { connection, _ in
                try await connection.get("/health")
            }

            let delivered = submitted.results.filter { $0 }.count
            let credited = Double(delivered) / submitted.seconds
            let health = Double(healthRequests) / (before.seconds + after.seconds)
            print(
                String(
                    format: "credited submissions per second: %.0f (%d purchases in %.2f s)", credited, purchases,
                    submitted.seconds))
            print(
                String(
                    format: "GET /health per second: %.0f (%.0f before the submissions, %.0f after)", health,
                    before.rate, after.rate))
            print(
                String(
                    format: "ratio credited/health: %.3f; %d clients over loopback HTTP, ", credited / health, clients)
                    + "\(ledgerName), ledger preloaded with \(round > 1 ? preload : 0)")
            let healthCPU = (before.cpuSeconds + after.cpuSeconds) * 1_000_000 / Double(healthRequests)
            print(
                String(
                    format: "CPU per request (this process, server and client): %.0f µs per credited submission, "
                        + "%.0f µs per GET /health; %.2f of %d cores busy while submitting",
                    submitted.cpuMicrosecondsPerItem, healthCPU, submitted.cpuSeconds / submitted.seconds,
                    ProcessInfo.processInfo.activeProcessorCount))
            let writes = load.writeCounts().since(written)
            print(Self.describe(writes, perCredited: delivered))
            if let writer = Self.writerLine(writes, seconds: submitted.seconds) { print(writer) }
            try await checkExactlyOnce(delivered: delivered, store: store, round: round)
            return (credited, credited / health, submitted.cpuMicrosecondsPerItem)
        }

        /// Every purchase delivered once, in the ledger once, and each bench user's wallet holds exactly its credits.
        func checkExactlyOnce(delivered: Int, store: any LedgerStore, round: Int) async throws {
            let statistics = try await store.statistics()
            let preloaded = round > 1 ? preload : 0
            let credited = preloaded + round * purchases
            var wrongWallets = 0
            for userIndex in 0..<min(purchases, Self.users) {
                let bought = round * ((purchases - userIndex + Self.users - 1) / Self.users)
                let balances = try await store.balances(of: UserID(rawValue: Self.user(userIndex)))
                if balances != ["gold": 60 * Int64(bought)] { wrongWallets += 1 }
            }
            print(
                "exactly once: delivered \(delivered) of \(purchases); ledger credited "
                    + "\(statistics.creditedTransactions) (\(preloaded) preloaded), grants \(statistics.grants), "
                    + "wallets off \(wrongWallets)")
            guard delivered == purchases, statistics.creditedTransactions == credited, statistics.grants == credited,
                wrongWallets == 0
            else {
                throw ValidationError("not every purchase was credited exactly once")
            }
        }

        /// The bench's buyers: purchase `index` belongs to one of `users` accounts.
        static let users = 100
        static func user(_ index: Int) -> String { "bench-user-\(index % users)" }
    }
}
