import AppStoreSimulator
import AppStoreVerification
import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import PurserCore
import PurserServer
import PurserStorage
import ServiceLifecycle
import Testing

/// A Purser server on a real SQLite ledger in a temporary directory, with an in-process App Store simulator whose
/// root it trusts, driven over live HTTP on a loopback port.
struct TestServer {
    static let bundleID = "com.example.app"
    static let catalog = ProductCatalog([
        ProductDefinition(id: "gold60", type: .consumable, grants: Grants(["gold": 60])),
        ProductDefinition(id: "gold120", type: .consumable, grants: Grants(["gold": 120])),
        ProductDefinition(id: "noads", type: .nonConsumable, grants: Grants(["noads": 1])),
    ])

    let appStore: SimulatedAppStore
    let store: SQLiteLedgerStore
    let authority: SimulatorCertificateAuthority
    /// The simulator's App Store Server API (keys registered, faults, consumption answers).
    let serverAPI: SimulatedServerAPI
    /// Reconciliation against the simulator's App Store Server API, over loopback HTTP.
    let reconciler: Reconciler
    /// How the assembled server confirms StoreKit 1 receipts.
    let receiptVerification: ServerConfiguration.ReceiptVerification
    /// The server's Finish Transaction and Set App Account Token calls (tests run the periodic job themselves).
    let followUps: AppleFollowUps?
    /// The server's App Store Server API client, over loopback HTTP to the simulator.
    let apiClient: AppStoreServerAPIClient
    /// The SQLite ledger's file.
    let ledgerPath: String
    static let adminToken = "test-admin-token"

    /// The configuration of every test server: the test bundle, a free loopback port, development authentication,
    /// consumption answers on, the admin API on, no periodic reconciliation nor Apple follow-ups (tests run them).
    static func configuration(environments: Set<AppStoreEnvironment>, verifyReceiptTimeoutSeconds: Double)
        -> ServerConfiguration
    {
        var configuration = ServerConfiguration()
        configuration.port = 0
        configuration.bundleId = bundleID
        configuration.environments = AppStoreEnvironment.allCases.filter(environments.contains)
        configuration.auth.mode = .development
        configuration.verifyReceiptTimeoutSeconds = verifyReceiptTimeoutSeconds
        configuration.consumption = .init()
        configuration.consumption.respond = true
        configuration.consumption.customerConsented = true
        configuration.reconciliation.intervalSeconds = 0
        configuration.finishing.intervalSeconds = 0
        configuration.admin.token = adminToken
        return configuration
    }

    /// Runs `body` against a fresh server, built by `PurserAssembly` as `purser serve` builds it, with a hosted App
    /// Store simulator whose notifications are sent when a test delivers them; `environments` are the accepted App
    /// Store environments; `configure` changes anything else in the configuration before the server is built.
    static func run(
        environments: Set<AppStoreEnvironment> = [.production, .sandbox],
        verifyReceiptTimeoutSeconds: Double = 2,
        configure: (inout ServerConfiguration) -> Void = { _ in },
        catalog: ProductCatalog = TestServer.catalog,
        now: @escaping @Sendable () -> Date = { Date() },
        _ body: @Sendable (TestServer, any TestClientProtocol) async throws -> Void
    ) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("purser-server-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        var configuration = configuration(
            environments: environments,
            verifyReceiptTimeoutSeconds: verifyReceiptTimeoutSeconds)
        configure(&configuration)
        let (server, assembly) = try await assemble(configuration, in: directory, catalog: catalog, now: now)
        try await assembly.application().test(.live) { client in
            try await body(server, client)
        }
    }

    /// Like `run`, but the application runs exactly as `purser serve` runs it (`runService()`; HummingbirdTesting's
    /// live wrapper rebuilds the `ApplicationConfiguration` without its `availableConnectionsDelegate`), and `body`
    /// gets the port.
    static func serve(
        configure: (inout ServerConfiguration) -> Void,
        _ body: @Sendable (TestServer, _ port: Int) async throws -> Void
    ) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("purser-server-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        var configuration = configuration(environments: [.production, .sandbox], verifyReceiptTimeoutSeconds: 2)
        configure(&configuration)
        let (server, assembly) = try await assemble(configuration, in: directory)
        let (ports, listening) = AsyncStream.makeStream(of: Int.self)
        let services = ServiceGroup(
            configuration: .init(
                services: [assembly.application(onServerRunning: { listening.yield($0) })],
                logger: Logger(label: "purser.test")))
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await services.run() }
            var iterator = ports.makeAsyncIterator()
            let port = try #require(await iterator.next())
            do {
                try await body(server, port)
            } catch {
                await services.triggerGracefulShutdown()
                throw error
            }
            await services.triggerGracefulShutdown()
            try await group.waitForAll()
        }
    }

    /// The server's parts over a SQLite ledger in `directory`, built by `PurserAssembly`.
    private static func assemble(
        _ configuration: ServerConfiguration, in directory: URL, catalog: ProductCatalog = TestServer.catalog,
        now: @escaping @Sendable () -> Date = { Date() }
    ) async throws -> (TestServer, PurserAssembly) {
        let logger = Logger(label: "purser.test")
        let authority = try SimulatorCertificateAuthority.generate(validity: .standard(now: Date()))
        let appStore = try SimulatedAppStore(
            signer: JWSSigner(authority: authority),
            configuration: .init(defaultBundleID: bundleID))
        let store = try await SQLiteLedgerStore.open(
            path: directory.appendingPathComponent("purser.sqlite").path,
            logger: logger)
        let serverAPI = SimulatedServerAPI(store: appStore)
        let assembly = try PurserAssembly(
            configuration: configuration, catalog: catalog, store: store,
            appStore: try await .simulator(
                appStore, serverAPI: serverAPI, configuration: configuration,
                placement: .hosted(notifications: .onDemand),
                retryPolicy: .init(baseDelay: .milliseconds(10))),
            logger: logger, now: now)
        let reconciler = try #require(assembly.reconciler)
        let server = TestServer(
            appStore: appStore, store: store, authority: authority, serverAPI: serverAPI,
            reconciler: reconciler, receiptVerification: assembly.receiptVerification,
            followUps: assembly.appleFollowUps, apiClient: try #require(assembly.appStore.serverAPI),
            ledgerPath: directory.appendingPathComponent("purser.sqlite").path)
        return (server, assembly)
    }

    /// Creates an order for `user` over HTTP.
    func order(_ product: String, for user: String, client: some TestClientProtocol) async throws -> OrderResponse {
        let response = try await client.post("/v1/orders", user: user, json: CreateOrderRequest(productId: product))
        #expect(response.status == .created)
        return try response.decode(OrderResponse.self)
    }

    /// "Pays" through the simulator and returns the signed transaction.
    func pay(
        _ product: String, token: String?, environment: AppStoreEnvironment = .sandbox,
        bundle: String? = nil, device: String? = nil
    ) async throws -> (id: String, jws: String) {
        let (transaction, jws) = try await appStore.purchase(
            .init(
                productId: product, bundleId: bundle, appAccountToken: token, environment: environment, deviceId: device
            ))
        return (transaction.transactionId, jws)
    }

    /// The device's current app receipt, base64 as the app sends it.
    func receipt(device: String) async throws -> String {
        Data(try await appStore.receipt(deviceId: device).der).base64EncodedString()
    }
}

extension TestClientProtocol {
    /// A request to the admin API with its bearer token, as operator `sam`; a body is sent as JSON.
    func admin(_ method: HTTPRequest.Method, _ uri: String, body: String? = nil) async throws -> TestResponse {
        var headers: HTTPFields = [.authorization: "Bearer \(TestServer.adminToken)"]
        headers[HTTPField.Name("X-Purser-Operator")!] = "sam"
        if body != nil { headers[.contentType] = "application/json" }
        return try await execute(uri: uri, method: method, headers: headers, body: body.map { ByteBuffer(string: $0) })
    }

    func post(_ uri: String, user: String?, json: some Encodable) async throws -> TestResponse {
        try await post(uri, user: user, body: ByteBuffer(bytes: try JSONEncoder().encode(json)))
    }

    func post(_ uri: String, user: String?, body: ByteBuffer?) async throws -> TestResponse {
        var headers: HTTPFields = [.contentType: "application/json"]
        if let user { headers[DevelopmentAuthenticator.header] = user }
        return try await execute(uri: uri, method: .post, headers: headers, body: body)
    }

    func get(_ uri: String, user: String?) async throws -> TestResponse {
        var headers: HTTPFields = [:]
        if let user { headers[DevelopmentAuthenticator.header] = user }
        return try await execute(uri: uri, method: .get, headers: headers)
    }

    func submit(_ jws: String, user: String, orderId: String? = nil) async throws -> TestResponse {
        try await post(
            "/v1/transactions", user: user, json: SubmitTransactionRequest(signedTransaction: jws, orderId: orderId))
    }

    func wallet(_ user: String) async throws -> [String: Int64] {
        try await get("/v1/wallet", user: user).decode(WalletResponse.self).balances
    }
}

extension TestResponse {
    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return try decoder.decode(type, from: Data(body.readableBytesView))
    }

    /// The stable error code of an error response.
    var errorCode: String? { (try? decode(APIErrorResponse.self))?.error.code }
}
