import AppStoreSimulator
import AppStoreVerification
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import PurserCore
import PurserStorage
import Testing

@testable import PurserServer

/// The console of a studio of two apps over live HTTP (`PurserStudio`, each app on a ledger of its own): the switcher
/// makes the pages one app's or the other's, a page or form of an app the operator may not see is 404, the search
/// looks in every app the operator may see and names the app of each hit, and an admin gives roles per app.
@Suite struct ConsoleStudioTests {
    static let home = TestServer.bundleID
    static let racers = "com.example.racers"
    static let password = ConsoleTests.password

    /// The studio's parts the tests look at: the simulator and each app's ledger (`stores[0]` holds the operators).
    struct Studio: Sendable {
        let appStore: SimulatedAppStore
        let stores: [SQLiteLedgerStore]

        /// `user` pays for gold60 in `app` (with an order's token when `order` is given) and submits it there.
        func buy(in app: String, as user: String, order: String? = nil, client: some TestClientProtocol)
            async throws -> String
        {
            let (transaction, jws) = try await appStore.purchase(
                .init(productId: "gold60", bundleId: app, appAccountToken: order, environment: .sandbox))
            let body = try JSONEncoder().encode(SubmitTransactionRequest(signedTransaction: jws, orderId: nil))
            let response = try await client.execute(
                uri: "/v1/transactions", method: .post, headers: ConsoleStudioTests.headers(app: app, user: user),
                body: ByteBuffer(bytes: body))
            #expect(response.status == .ok, "\(String(buffer: response.body))")
            return transaction.transactionId
        }
    }

    static func headers(app: String, user: String) -> HTTPFields {
        var headers: HTTPFields = [.contentType: "application/json"]
        headers[DevelopmentAuthenticator.header] = user
        headers[AppDispatchMiddleware.header] = app
        return headers
    }

    /// Runs `body` against a studio of two apps (this bundle first, then racers) selling the same catalog, with
    /// `ana` seeded from the configuration as an admin (so an admin in both apps); `configure` changes the studio's
    /// settings (the apps inherit what it sets at the top level).
    static func run(
        configure: (inout ServerConfiguration) -> Void = { _ in },
        _ body: @Sendable (Studio, any TestClientProtocol) async throws -> Void
    ) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("purser-studio-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(
            at: directory.appendingPathComponent("apps"), withIntermediateDirectories: true)
        var configuration = TestServer.configuration(
            environments: [.production, .sandbox], verifyReceiptTimeoutSeconds: 2)
        configure(&configuration)
        let first = ServerConfiguration.App(topLevel: configuration)
        var second = first
        second.bundleId = racers
        configuration.apps = [first, second]
        configuration.console.operators = [
            .init(name: "ana", passwordHash: try PasswordHash.make(password, logN: 10).encoded)
        ]
        let logger = Logger(label: "purser.test")
        let authority = try SimulatorCertificateAuthority.generate(validity: .standard(now: Date()))
        let appStore = try SimulatedAppStore(
            signer: JWSSigner(authority: authority), configuration: .init(defaultBundleID: home))
        let stores = [
            try await SQLiteLedgerStore.open(
                path: directory.appendingPathComponent("purser.sqlite").path, logger: logger),
            try await SQLiteLedgerStore.open(
                path: directory.appendingPathComponent("apps/\(racers).sqlite").path, logger: logger),
        ]
        let access = try await AppStoreAccess.simulator(
            appStore, serverAPI: SimulatedServerAPI(store: appStore), configuration: configuration.settings(for: first),
            placement: .hosted(notifications: .onDemand), retryPolicy: .init(baseDelay: .milliseconds(10)))
        let studio = try PurserStudio.assemble(
            configuration, catalogs: [TestServer.catalog, TestServer.catalog], ledgers: stores,
            appStores: [access, try access.serving(configuration.settings(for: second))], logger: logger)
        try await studio.application().test(.live) { client in
            try await body(Studio(appStore: appStore, stores: stores), client)
        }
    }

    /// Signs `name` in: the session cookie and the app cookie the sign-in set, as one `Cookie` header.
    static func signIn(_ client: some TestClientProtocol, as name: String) async throws -> String {
        let response = try await ConsoleTests.post(
            client, "/console/sign-in", form: ["operator": name, "password": password])
        #expect(response.status == .seeOther, "\(name)")
        let cookies = response.headers[values: .setCookie].map { String($0.prefix { $0 != ";" }) }
        #expect(cookies.count == 2 && cookies[1].hasPrefix("\(ConsoleStudio.cookieName)="), "\(cookies)")
        return cookies.joined(separator: "; ")
    }

    /// The session cookie of `cookies` with the app cookie naming `app` instead.
    static func inApp(_ app: String, _ cookies: String) -> String {
        let session = cookies.split(separator: "; ").first { $0.hasPrefix(ConsoleSession.cookieName + "=") } ?? ""
        return "\(session); \(ConsoleStudio.cookieName)=\(app)"
    }

    static func html(_ response: TestResponse) -> String { String(buffer: response.body) }

    /// Adds an operator with `roles` to the studio's ledger of operators.
    static func add(_ name: String, roles: [String: ConsoleRole], to studio: Studio) async throws {
        let person = ConsoleOperator(
            name: name, passwordHash: try PasswordHash.make(password, logN: 10).encoded, roles: roles,
            updatedAt: Date())
        #expect(try await studio.stores[0].addConsoleOperator(person, cause: "test", now: Date()))
    }

    @Test func anOperatorOfBothAppsSwitchesAndEachAppsPagesReadAndWriteItsOwnLedger() async throws {
        try await Self.run { studio, client in
            let ofHome = try await studio.buy(in: Self.home, as: "mei", client: client)
            let ofRacers = try await studio.buy(in: Self.racers, as: "mei", client: client)
            #expect(try await studio.stores[1].transaction(ofRacers)?.state == .unbound)
            // Seeded from the configuration: the configured role in every app.
            #expect(
                try await studio.stores[0].consoleOperator("ana")?.roles == [Self.home: .admin, Self.racers: .admin])

            let ana = try await Self.signIn(client, as: "ana")
            let homeQueue = try await ConsoleTests.get(client, "/console/unbound", cookie: ana)
            #expect(homeQueue.status == .ok)
            #expect(Self.html(homeQueue).contains(ofHome) && !Self.html(homeQueue).contains(ofRacers))
            // The switcher: both apps, this one marked.
            #expect(Self.html(homeQueue).contains("id=\"apps\""))
            #expect(Self.html(homeQueue).contains("href=\"/console/apps/\(Self.racers)\""))
            #expect(Self.html(homeQueue).contains("aria-current=\"page\">\(Self.home)</a>"))
            let homeCSRF = try ConsoleTests.csrf(in: homeQueue)

            let switched = try await ConsoleTests.get(client, "/console/apps/\(Self.racers)", cookie: ana)
            #expect(switched.status == .seeOther && switched.headers[.location] == "/console/dashboard")
            #expect(switched.headers[.setCookie]?.hasPrefix("\(ConsoleStudio.cookieName)=\(Self.racers);") == true)
            let inRacers = Self.inApp(Self.racers, ana)
            let racersQueue = try await ConsoleTests.get(client, "/console/unbound", cookie: inRacers)
            #expect(Self.html(racersQueue).contains(ofRacers) && !Self.html(racersQueue).contains(ofHome))
            #expect(Self.html(racersQueue).contains("aria-current=\"page\">\(Self.racers)</a>"))
            #expect(
                try await ConsoleTests.get(client, "/console/transactions/\(ofRacers)", cookie: inRacers).status == .ok)

            // A form drawn for the first app is refused once the browser switched to racers (its CSRF token is the
            // first app's), and nothing changes.
            let crossed = try await ConsoleTests.post(
                client, "/console/transactions/\(ofRacers)/grant",
                form: ["csrf": homeCSRF, "user": "kim", "reason": "paid twice"], cookie: inRacers)
            #expect(crossed.status == .forbidden)
            #expect(try await studio.stores[1].transaction(ofRacers)?.state == .unbound)
            // Racers' own form binds in racers' ledger only.
            let racersCSRF = try ConsoleTests.csrf(in: racersQueue)
            let bound = try await ConsoleTests.post(
                client, "/console/transactions/\(ofRacers)/grant",
                form: ["csrf": racersCSRF, "user": "kim", "reason": "paid twice"], cookie: inRacers)
            #expect(bound.status == .seeOther, "\(Self.html(bound))")
            #expect(try await studio.stores[1].transaction(ofRacers)?.state == .credited)
            #expect(try await studio.stores[0].transaction(ofRacers) == nil)
            #expect(try await studio.stores[0].transaction(ofHome)?.state == .unbound)
            // A goodwill credit on racers' user page lands in racers' wallet.
            let userPage = try await ConsoleTests.get(client, "/console/users?id=kim", cookie: inRacers)
            let credit = try await ConsoleRoleTests.goodwill(
                client, cookie: inRacers, user: "kim", amount: 5, csrf: try ConsoleTests.csrf(in: userPage))
            #expect(credit.headers[.location]?.hasSuffix("&credited=1") == true)
            let gold = { (store: SQLiteLedgerStore) in
                try await store.walletHistory(of: "kim", after: nil, limit: 10).entries.compactMap {
                    $0.amounts["gold"]
                }
            }
            #expect(try await gold(studio.stores[1]) == [5, 60])
            #expect(try await gold(studio.stores[0]).isEmpty)
        }
    }

    @Test func anAppTheOperatorMayNotSeeIsNotFoundAndNeverShown() async throws {
        try await Self.run { studio, client in
            try await Self.add("bo", roles: [Self.home: .support], to: studio)
            let ofRacers = try await studio.buy(in: Self.racers, as: "mei", client: client)
            let bo = try await Self.signIn(client, as: "bo")
            let page = try await ConsoleTests.get(client, "/console/dashboard", cookie: bo)
            #expect(page.status == .ok)
            #expect(Self.html(page).contains("href=\"/console/apps/\(Self.home)\""))
            #expect(!Self.html(page).contains(Self.racers))
            let csrf = try ConsoleTests.csrf(in: page)

            let switched = try await ConsoleTests.get(client, "/console/apps/\(Self.racers)", cookie: bo)
            #expect(switched.status == .notFound && switched.headers[.setCookie] == nil)
            let inRacers = Self.inApp(Self.racers, bo)
            for uri in [
                "/console/dashboard", "/console/unbound", "/console/transactions/\(ofRacers)", "/console/users?id=mei",
                "/console/search?q=\(ofRacers)", "/console/webhooks", "/console/approvals",
            ] {
                let refused = try await ConsoleTests.get(client, uri, cookie: inRacers)
                #expect(refused.status == .notFound, "\(uri)")
                #expect(!Self.html(refused).contains(ofRacers) && !Self.html(refused).contains(Self.racers), "\(uri)")
            }
            for (uri, form) in [
                ("/console/transactions/\(ofRacers)/grant", ["user": "mei", "reason": "r"]),
                (
                    "/console/users/goodwill",
                    ["id": "mei", "key": UUID().uuidString, "currency": "gold", "amount": "5", "reason": "r"]
                ),
            ] {
                let refused = try await ConsoleTests.post(
                    client, uri, form: form.merging(["csrf": csrf]) { $1 }, cookie: inRacers)
                #expect(refused.status == .notFound, "\(uri)")
            }
            #expect(try await studio.stores[1].transaction(ofRacers)?.state == .unbound)
            #expect(try await studio.stores[1].walletHistory(of: "mei", after: nil, limit: 10).entries.isEmpty)

            // The search looks only where bo may look: racers' transaction is not found, and racers is not named.
            let searched = try await ConsoleTests.get(client, "/console/search?q=mei", cookie: bo)
            #expect(!Self.html(searched).contains(Self.racers) && !Self.html(searched).contains(ofRacers))
            // An id known only to racers is, for bo, an id to ask Apple about in the first app: no list, no name.
            let byID = try await ConsoleTests.get(client, "/console/search?q=\(ofRacers)", cookie: bo)
            #expect(byID.status == .seeOther && byID.headers[.location] == "/console/transactions/\(ofRacers)")

            // Sign-in is one for every app: a failure counts in the studio's ledger of operators, whichever app the
            // browser was on.
            let failed = try await ConsoleTests.post(
                client, "/console/sign-in", form: ["operator": "bo", "password": "not the password"],
                cookie: "\(ConsoleStudio.cookieName)=\(Self.racers)")
            #expect(failed.status == .unauthorized)
            let since = Date().addingTimeInterval(-60)
            #expect(
                try await studio.stores[0].signInFailures(keys: ["operator:bo"], since: since) == ["operator:bo": 1])
            #expect(try await studio.stores[1].signInFailures(keys: ["operator:bo"], since: since).isEmpty)

            // An operator of racers alone is sent to racers at sign-in, and the first app is not found for them.
            try await Self.add("cy", roles: [Self.racers: .viewer], to: studio)
            let cy = try await Self.signIn(client, as: "cy")
            #expect(cy.hasSuffix("\(ConsoleStudio.cookieName)=\(Self.racers)"))
            #expect(try await ConsoleTests.get(client, "/console/unbound", cookie: cy).status == .ok)
            let home = try await ConsoleTests.get(client, "/console/unbound", cookie: Self.inApp(Self.home, cy))
            #expect(home.status == .notFound)
        }
    }

    @Test func theSearchLooksInEveryAppTheOperatorMaySeeAndNamesTheApp() async throws {
        try await Self.run { studio, client in
            let ofRacers = try await studio.buy(in: Self.racers, as: "mei", client: client)
            let ana = try await Self.signIn(client, as: "ana")
            let searched = try await ConsoleTests.get(client, "/console/search?q=\(ofRacers)", cookie: ana)
            #expect(searched.status == .ok)
            let link = "/console/apps/\(Self.racers)?back=/console/transactions/\(ofRacers)"
            #expect(Self.html(searched).contains("href=\"\(link)\""), "\(Self.html(searched))")
            #expect(Self.html(searched).contains("<span class=\"app\">\(Self.racers)</span>"))
            let followed = try await ConsoleTests.get(client, link, cookie: ana)
            #expect(followed.status == .seeOther)
            #expect(followed.headers[.location] == "/console/transactions/\(ofRacers)")
            #expect(followed.headers[.setCookie]?.hasPrefix("\(ConsoleStudio.cookieName)=\(Self.racers);") == true)
            // A user of racers only: the user page's link names racers and goes back to that user's page there.
            let ordered = try await client.execute(
                uri: "/v1/orders", method: .post, headers: Self.headers(app: Self.racers, user: "zoe"),
                body: ByteBuffer(bytes: try JSONEncoder().encode(CreateOrderRequest(productId: "gold60"))))
            let token = try ordered.decode(OrderResponse.self).appAccountToken
            _ = try await studio.buy(in: Self.racers, as: "zoe", order: token, client: client)
            let byUser = try await ConsoleTests.get(client, "/console/search?q=zoe", cookie: ana)
            let userLink = try #require(
                Self.html(byUser).firstMatch(of: /class="user-link" href="([^"]+)"/).map { String($0.1) })
            #expect(Self.html(byUser).contains("<span class=\"app\">\(Self.racers)</span>"))
            let toUser = try await ConsoleTests.get(client, userLink, cookie: ana)
            #expect(toUser.headers[.location] == "/console/users?id=zoe", "\(userLink)")
            let userPage = try await ConsoleTests.get(
                client, "/console/users?id=zoe", cookie: Self.inApp(Self.racers, ana))
            #expect(userPage.status == .ok && Self.html(userPage).contains("gold60"))

            // A transaction of this app opens at once, as in a single-app Purser.
            let ofHome = try await studio.buy(in: Self.home, as: "mei", client: client)
            let here = try await ConsoleTests.get(client, "/console/search?q=\(ofHome)", cookie: ana)
            #expect(here.status == .seeOther && here.headers[.location] == "/console/transactions/\(ofHome)")
        }
    }
}
