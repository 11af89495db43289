import AppStoreSimulator
import ArgumentParser
import Foundation
import Logging
import NIOCore
import PurserCore
import PurserServer
import PurserStorage

extension Purser {
    /// `purser bench spend`: wallet spends per second through the admin API over loopback HTTP, each with its own
    /// id, and in the same run through the same client the rate of `GET /health`, so the ratio says what a spend costs
    /// on top of HTTP; then as many spends again with an API key (`wallet:write`), which the server finds in the
    /// ledger at every request, so the ratio of the two says what that lookup costs. It then checks that every spend
    /// was taken exactly once.
    struct BenchSpend: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "spend",
            abstract: "Wallet spends per second (distinct ids) over loopback HTTP, against GET /health.")

        @Option(help: "Number of spends.") var spends = 20_000
        @Option(help: "Concurrent HTTP clients (one connection each).") var clients = 32
        @Option(help: "GET /health requests, half measured before the spends and half after.")
        var healthRequests = 20_000
        @OptionGroup var ledger: BenchLedgerOptions

        func validate() throws {
            guard spends > 0, clients > 0, healthRequests >= 2 else {
                throw ValidationError("--spends and --clients must be positive, --health-requests at least 2")
            }
        }

        /// The bench's spenders, and what each holds before the first spend.
        static let users = 100
        static let opening: Int64 = 1_000_000_000
        static let token = "bench-admin-token"

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
            let plan = self
            try await ledger.withDatabase(logger: logger) { url in
                let settings = {
                    var settings = BenchSubmit.settings(
                        directory: directory, databaseURL: url, bundleID: appStore.configuration.defaultBundleID)
                    settings.admin.token = Self.token
                    return settings
                }()
                let store = try await settings.openLedger(logger: logger)
                try await store.whileRunning {
                    try await store.migrate()
                    print("ledger: \(plan.ledger.name(replicas: 1))")
                    for user in 0..<Self.users {
                        for keyed in [false, true] {
                            _ = try await store.applyWalletTransaction(
                                .init(
                                    id: "bench-opening-\(keyed)-\(user)", userID: Self.user(user, keyed: keyed),
                                    amounts: ["gold": Self.opening], reason: "bench", cause: "admin"), now: Date())
                        }
                    }
                    let key = try await APIKeyService(store: store, apps: [settings.bundleId], now: { Date() }).create(
                        name: "bench-backend", scopes: ["wallet:write"], apps: nil, expiresInDays: nil, by: "bench")
                    try await BenchSubmit.withServers(
                        1, settings: settings, appStore: appStore, catalog: ProductCatalog([]), logger: logger
                    ) { ports, ledgers in
                        try await plan.measure(
                            BenchLoad(host: "127.0.0.1", ports: ports, clients: plan.clients, ledgers: ledgers),
                            key: key.secret, store: store)
                    }
                }
            }
        }

        func measure(_ load: BenchLoad, key: String, store: any LedgerStore) async throws {
            let bodies = (0..<spends).map { index in
                ByteBuffer(string: #"{"id": "bench-spend-\#(index)", "amounts": {"gold": -1}, "reason": "bench"}"#)
            }
            let keyBodies = (0..<spends).map { index in
                ByteBuffer(string: #"{"id": "bench-key-\#(index)", "amounts": {"gold": -1}, "reason": "bench"}"#)
            }
            _ = try await load.run("warm-up", count: clients * 50) { connection, _ in
                try await connection.get("/health")
            }
            print("measuring with \(clients) concurrent clients…")
            let before = try await load.run("GET /health", count: healthRequests / 2) { connection, _ in
                try await connection.get("/health")
            }
            let written = load.writeCounts()
            let spent = try await load.run("POST /admin/v1/wallets/…/transactions", count: spends) {
                connection, index in
                let answer: WalletService.Answer = try await connection.post(
                    "/admin/v1/wallets/\(Self.user(index))/transactions", token: Self.token, json: bodies[index])
                return !answer.replayed
            }
            let after = try await load.run("GET /health", count: healthRequests - healthRequests / 2) { connection, _ in
                try await connection.get("/health")
            }
            let spendWrites = load.writeCounts().since(written)
            let keyed = try await load.run("the same with an API key", count: spends) { connection, index in
                let answer: WalletService.Answer = try await connection.post(
                    "/admin/v1/wallets/\(Self.user(index, keyed: true))/transactions", token: key,
                    json: keyBodies[index])
                return !answer.replayed
            }
            let rate = Double(spent.results.filter { $0 }.count) / spent.seconds
            let health = Double(healthRequests) / (before.seconds + after.seconds)
            print(String(format: "spends per second: %.0f (%d spends in %.2f s)", rate, spends, spent.seconds))
            print(
                String(
                    format: "GET /health per second: %.0f (%.0f before the spends, %.0f after)", health, before.rate,
                    after.rate))
            print(
                String(
                    format: "ratio spends/health: %.3f; %d clients over loopback HTTP; CPU %.0f µs per spend",
                    rate / health, clients, spent.cpuMicrosecondsPerItem))
            print(
                BenchSubmit.describe(spendWrites, perCredited: spent.results.count, noun: "spend"))
            let keyedRate = Double(keyed.results.filter { $0 }.count) / keyed.seconds
            print(
                String(
                    format: "with an API key (found in the ledger per request): %.0f spends per second; "
                        + "ratio key/admin.token: %.3f; CPU %.0f µs per spend",
                    keyedRate, keyedRate / rate, keyed.cpuMicrosecondsPerItem))
            try await checkExactlyOnce(applied: (spent.results + keyed.results).filter { $0 }.count, store: store)
        }

        /// Every spend applied once: each bench user's balance is the opening less their spends.
        func checkExactlyOnce(applied: Int, store: any LedgerStore) async throws {
            var wrong = 0
            for user in 0..<Self.users {
                let count = Int64((spends - user + Self.users - 1) / Self.users)
                for keyed in [false, true]
                where try await store.balances(of: Self.user(user, keyed: keyed)) != ["gold": Self.opening - count] {
                    wrong += 1
                }
            }
            print("exactly once: applied \(applied) of \(2 * spends); wallets off \(wrong)")
            guard applied == 2 * spends, wrong == 0 else {
                throw ValidationError("not every spend was taken exactly once")
            }
        }

        /// The spender of spend `index`: the key's round spends from wallets of its own, as many and as full as the
        /// token's, so that the two rounds meet the same ledger work (a spend sums its user's entries).
        static func user(_ index: Int, keyed: Bool = false) -> UserID {
            UserID((keyed ? "bench-key-user-" : "bench-user-") + String(index % users))
        }
    }
}
