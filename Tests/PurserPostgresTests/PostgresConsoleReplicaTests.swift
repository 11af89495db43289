import AppStoreSimulator
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import PurserCore
import PurserServer
import PurserStorage
import Testing

/// The console on two replicas sharing one PostgreSQL ledger, over live HTTP: an operator disabled through one
/// replica is signed out of the other on their next request, and failed sign-ins spread over both replicas meet one
/// limit.
@Suite(.enabled(if: PostgresTestDatabase.isConfigured, PostgresTestDatabase.howToRun))
struct PostgresConsoleReplicaTests {
    static let password = "correct horse battery"
    static let token = "replica-admin-token"

    /// A replica on `configuration`'s database with the admin token and two operators (zhao support, wang admin).
    static func replica(on configuration: PostgresLedgerStore.Configuration) async throws -> PurserAssembly {
        var settings = ServerConfiguration()
        settings.port = 0
        settings.bundleId = "com.example.app"
        settings.auth.mode = .development
        settings.reconciliation.intervalSeconds = 0
        settings.admin.token = token
        let hash = try PasswordHash.make(password, logN: 10).encoded
        settings.console.operators = [
            .init(name: "zhao", passwordHash: hash, role: "support"), .init(name: "wang", passwordHash: hash),
        ]
        let authority = try SimulatorCertificateAuthority.generate(validity: .standard(now: Date()))
        let appStore = try SimulatedAppStore(
            signer: JWSSigner(authority: authority), configuration: .init(defaultBundleID: settings.bundleId))
        return try PurserAssembly(
            configuration: settings,
            catalog: ProductCatalog([ProductDefinition(id: "gold60", type: .consumable, grants: Grants(["gold": 60]))]),
            store: PostgresLedgerStore(configuration: configuration, logger: PostgresTestDatabase.logger),
            appStore: try await .simulator(
                appStore, serverAPI: SimulatedServerAPI(store: appStore), configuration: settings,
                placement: .hosted(notifications: .kept)),
            logger: PostgresTestDatabase.logger)
    }

    static func post(_ client: some TestClientProtocol, _ uri: String, _ form: String, cookie: String? = nil)
        async throws -> TestResponse
    {
        var headers: HTTPFields = [.contentType: "application/x-www-form-urlencoded"]
        if let cookie { headers[.cookie] = cookie }
        return try await client.execute(uri: uri, method: .post, headers: headers, body: ByteBuffer(string: form))
    }

    static func signIn(_ client: some TestClientProtocol, _ form: String) async throws -> String {
        let response = try await post(client, "/console/sign-in", form)
        #expect(response.status == .seeOther)
        return String(try #require(response.headers[.setCookie]).prefix { $0 != ";" })
    }

    static func get(_ client: some TestClientProtocol, _ uri: String, cookie: String) async throws -> TestResponse {
        try await client.execute(uri: uri, method: .get, headers: [.cookie: cookie])
    }

    @Test func disablingOnOneReplicaSignsOutOnTheOtherAndTheThrottleIsShared() async throws {
        try await PostgresTestDatabase.withFreshDatabase { configuration, _ in
            let first = try await Self.replica(on: configuration)
            let second = try await Self.replica(on: configuration)
            try await first.application().test(.live) { one in
                try await second.application().test(.live) { two in
                    let zhao = try await Self.signIn(one, "operator=zhao&password=correct+horse+battery")
                    #expect(try await Self.get(two, "/console/dashboard", cookie: zhao).status == .ok)

                    let wang = try await Self.signIn(two, "operator=wang&password=correct+horse+battery")
                    let page = String(buffer: try await Self.get(two, "/console/operators", cookie: wang).body)
                    let csrf = try #require(page.firstMatch(of: /name="csrf" value="([^"]+)"/)).1
                    let disabled = try await Self.post(
                        two, "/console/operators/change", "csrf=\(csrf)&name=zhao&change=disable", cookie: wang)
                    #expect(disabled.status == .ok)
                    for replica in [one, two] as [any TestClientProtocol] {
                        let next = try await Self.get(replica, "/console/dashboard", cookie: zhao)
                        #expect(next.status == .seeOther && next.headers[.location] == "/console/sign-in")
                    }

                    // Five failures for one name, alternating replicas: the sixth try is refused on either.
                    for attempt in 0..<5 {
                        let client: any TestClientProtocol = attempt % 2 == 0 ? one : two
                        let wrong = try await Self.post(client, "/console/sign-in", "operator=wang&password=wrong")
                        #expect(wrong.status == .unauthorized)
                    }
                    for replica in [one, two] as [any TestClientProtocol] {
                        let locked = try await Self.post(
                            replica, "/console/sign-in", "operator=wang&password=correct+horse+battery")
                        #expect(locked.status == .tooManyRequests)
                    }
                }
            }
        }
    }
}
