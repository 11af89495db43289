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
import Testing

/// A Purser server on a real SQLite ledger in a temporary directory, with an in-process App Store simulator whose
/// root it trusts, driven over live HTTP on a loopback port.
struct TestServer {
    static let bundleID = "com.example.app"
    static let catalog = ProductCatalog([
        Product(id: "gold60", type: .consumable, grants: Grants(["gold": 60])),
        Product(id: "gold120", type: .consumable, grants: Grants(["gold": 120])),
        Product(id: "noads", type: .nonConsumable, grants: Grants(["noads": 1])),
    ])

    let appStore: SimulatedAppStore
    let store: SQLiteLedgerStore
    let authority: SimulatorCertificateAuthority
    /// The simulator's App Store Server API (keys registered, faults, consumption answers).
    let serverAPI: SimulatedServerAPI
    /// Reconciliation against the simulator's App Store Server API, over loopback HTTP.
    let reconciler: Reconciler
    static let adminToken = "test-admin-token"

    /// Runs `body` against a fresh server; `environments` are the accepted App Store environments.
    static func run(
        environments: Set<AppStoreEnvironment> = [.production, .sandbox],
        authenticator: any Authenticator = DevelopmentAuthenticator(),
        verifyReceiptTimeout: Duration = .seconds(2),
        _ body: @Sendable (TestServer, any TestClientProtocol) async throws -> Void
    ) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("purser-server-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let logger = Logger(label: "purser.test")
        let authority = try SimulatorCertificateAuthority.generate(validity: .standard(now: Date()))
        let appStore = try SimulatedAppStore(signer: JWSSigner(authority: authority),
                                             configuration: .init(defaultBundleID: bundleID))
        let store = try await SQLiteLedgerStore.open(path: directory.appendingPathComponent("purser.sqlite").path, logger: logger)
        let verifier = SignedDataVerifier(configuration: .init(trustedRoots: [AppleRootCertificates.rootCAG3, authority.root]))
        let submissions = SubmissionService(
            verifier: verifier, receipts: receipts(appStore, timeout: verifyReceiptTimeout),
            claims: ClaimsPolicy(bundleID: bundleID, environments: environments), catalog: catalog, store: store)
        let serverAPI = SimulatedServerAPI(store: appStore)
        let apiKey = P256.Signing.PrivateKey()
        await serverAPI.register(.init(issuerId: "test-issuer", keyId: "TESTKEY", bundleId: bundleID, publicKey: apiKey.publicKey))
        let loopback = LoopbackTransport()
        let api = try AppStoreServerAPIClient(
            configuration: .init(issuerID: "test-issuer", keyID: "TESTKEY", bundleID: bundleID, privateKey: apiKey,
                                 baseURL: LoopbackTransport.placeholder, retryPolicy: .init(baseDelay: .milliseconds(10))),
            transport: loopback)
        let notifications = NotificationService(
            submissions: submissions,
            consumption: .viaServerAPI(api, store: store, customerConsented: true), logger: logger)
        let dependencies = PurserServerDependencies(
            orders: OrderService(catalog: catalog, store: store), submissions: submissions, notifications: notifications,
            store: store, authenticator: authenticator,
            support: SupportService(submissions: submissions, apple: .init(api)), adminToken: adminToken)
        let app = PurserApplication.build(configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                                          dependencies: dependencies, logger: logger,
                                          addRoutes: { router in
                                              SimulatorRoutes(store: appStore).addRoutes(to: router)
                                              ServerAPIRoutes(api: serverAPI).addRoutes(to: router)
                                          })
        let server = TestServer(appStore: appStore, store: store, authority: authority, serverAPI: serverAPI,
                                reconciler: Reconciler(api: api, notifications: notifications))
        try await app.test(.live) { client in
            if let port = client.port {
                loopback.listening(on: port)
                await appStore.deliverNotifications(
                    to: URL(string: "http://127.0.0.1:\(port)/v1/appstore/notifications")!, transport: HTTPClientTransport())
            }
            try await body(server, client)
        }
    }

    /// `verifyReceipt` answered in-process by the simulator, with a short time-out for time-out tests.
    static func receipts(_ appStore: SimulatedAppStore, timeout: Duration) -> VerifyReceiptClient {
        VerifyReceiptClient(
            configuration: .init(productionURL: SimulatorTransport.productionVerifyReceiptURL,
                                 sandboxURL: SimulatorTransport.sandboxVerifyReceiptURL, timeout: timeout),
            transport: SimulatorTransport(store: appStore))
    }

    /// Creates an order for `user` over HTTP.
    func order(_ product: String, for user: String, client: some TestClientProtocol) async throws -> OrderResponse {
        let response = try await client.post("/v1/orders", user: user, json: CreateOrderRequest(productId: product))
        #expect(response.status == .created)
        return try response.decode(OrderResponse.self)
    }

    /// "Pays" through the simulator and returns the signed transaction.
    func pay(_ product: String, token: String?, environment: AppStoreEnvironment = .sandbox,
             bundle: String? = nil, device: String? = nil) async throws -> (id: String, jws: String) {
        let (transaction, jws) = try await appStore.purchase(
            .init(productId: product, bundleId: bundle, appAccountToken: token, environment: environment, deviceId: device))
        return (transaction.transactionId, jws)
    }

    /// The device's current app receipt, base64 as the app sends it.
    func receipt(device: String) async throws -> String {
        Data(try await appStore.receipt(deviceId: device).der).base64EncodedString()
    }
}

extension TestClientProtocol {
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
        try await post("/v1/transactions", user: user, json: SubmitTransactionRequest(signedTransaction: jws, orderId: orderId))
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
