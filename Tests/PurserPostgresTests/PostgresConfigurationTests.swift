import Foundation
import PostgresNIO
import PurserCore
import PurserStorage
import Testing

/// The database URL, and a server that is not there: no PostgreSQL needed.
@Suite struct PostgresConfigurationTests {
    @Test func readsEveryPartOfTheURL() throws {
        let configuration = try PostgresLedgerStore.Configuration(
            url: "postgresql://pur%40ser:s%3Acret@db.example:6432/ledger?sslmode=disable")
        #expect(configuration.client.host == "db.example")
        #expect(configuration.client.port == 6432)
        #expect(configuration.client.username == "pur@ser")
        #expect(configuration.client.password == "s:cret")
        #expect(configuration.client.database == "ledger")
        #expect(configuration.client.options.additionalStartupParameters.map(\.1) == ["purser"])
    }

    /// The password from the environment wins over the URL's; the port defaults to 5432; no path, no database.
    @Test func takesThePasswordApartFromTheURL() throws {
        let configuration = try PostgresLedgerStore.Configuration(
            url: "postgres://purser:ignored@127.0.0.1", password: "from-the-environment")
        #expect(configuration.client.password == "from-the-environment")
        #expect(configuration.client.port == 5432)
        #expect(configuration.client.database == nil)
    }

    /// libpq's multi-host form: each host with its own port or the default, IPv6 in brackets, and
    /// `target_session_attrs`; the first host is `client`'s, and a one-host URL chooses nothing.
    @Test func readsSeveralHosts() throws {
        let configuration = try PostgresLedgerStore.Configuration(
            url: "postgres://purser:pw@h1:5433,h2,[::1]:6000/ledger?target_session_attrs=read-write&sslmode=disable")
        #expect(
            configuration.servers == [
                .init(host: "h1", port: 5433), .init(host: "h2", port: 5432), .init(host: "::1", port: 6000),
            ])
        #expect(configuration.targetSessionAttributes == .readWrite)
        #expect(configuration.client.host == "h1" && configuration.client.port == 5433)
        #expect(configuration.client.database == "ledger" && configuration.client.password == "pw")
        let any = try PostgresLedgerStore.Configuration(url: "postgres://purser@h1,h2/ledger?target_session_attrs=any")
        #expect(any.targetSessionAttributes == .any && any.servers.map(\.port) == [5432, 5432])
        let one = try PostgresLedgerStore.Configuration(url: "postgres://purser@db.example/ledger")
        #expect(one.servers == [.init(host: "db.example")] && one.targetSessionAttributes == .any)
    }

    /// Bad URLs are refused with a message that does not repeat them (they may hold a password).
    @Test func refusesWhatIsNotAPostgresURL() {
        for url in [
            "http://purser@host/db", "postgres:///db", "postgres://host/db", "postgres://u:hunter2@h/d?sslmode=x",
            "postgres://u:hunter2@h1,,h2/d", "postgres://u:hunter2@h1:99999/d", "postgres://u:hunter2@[::1/d",
            "postgres://u:hunter2@h1,h2/d?target_session_attrs=read-only",
        ] {
            #expect {
                _ = try PostgresLedgerStore.Configuration(url: url)
            } throws: { error in
                (error as? StorageError)?.code == .unavailable && !"\(error)".contains("hunter2")
            }
        }
    }

    /// Nothing listens on the port: operations throw `storage_unavailable` within the connection wait, and the store
    /// neither crashes nor hangs.
    @Test func anUnreachableDatabaseIsUnavailable() async throws {
        // Port 1 (tcpmux) on loopback: nothing listens there, connections are refused.
        let configuration = try PostgresLedgerStore.Configuration(
            url: "postgres://purser@127.0.0.1:1/ledger?sslmode=disable", connectionWaitTimeout: .milliseconds(500))
        try await PostgresTestDatabase.withStores(1, configuration) { stores in
            let clock = ContinuousClock()
            let start = clock.now
            await #expect(throws: StorageError(.unavailable, "")) { try await stores[0].migrate() }
            await #expect(throws: StorageError(.unavailable, "")) { try await stores[0].balances(of: "nobody") }
            // A hang check, not a timing: a loaded machine can take seconds, a store that hangs never answers.
            #expect(clock.now - start < .seconds(60))
        }
    }
}
