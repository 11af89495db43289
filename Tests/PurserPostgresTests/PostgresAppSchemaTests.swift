import Foundation
import PostgresNIO
import PurserCore
import PurserStorageTesting
import Testing

@testable import PurserStorage

/// A studio's further apps keep their ledgers in schemas of their own in the first app's database
/// (`Configuration.inSchema`): every query of the store stays in its schema, so one game's money never lands in
/// another's ledger.
@Suite(.enabled(if: PostgresTestDatabase.isConfigured, PostgresTestDatabase.howToRun))
struct PostgresAppSchemaTests {
    /// The whole conformance suite on a ledger in a schema, beside a migrated default ledger that must stay empty.
    @Test func aLedgerInASchemaPassesTheConformanceSuiteAndTouchesNothingElse() async throws {
        try await PostgresTestDatabase.withFreshDatabase { configuration, _ in
            try await PostgresTestDatabase.withStores(1, configuration) { try await $0[0].migrate() }
            let racers = try configuration.inSchema("app_com_example_racers")
            try await PostgresTestDatabase.withStores(1, racers) { stores in
                try await stores[0].migrate()
                try await LedgerStoreConformance(
                    store: stores[0], debit: PostgresLedgerStoreTests.debit(stores[0]),
                    corrupt: PostgresLedgerStoreTests.corrupt(stores[0])
                ).runAll(visibilityRounds: 20)
            }
            let tables = try await PostgresTestDatabase.withAdmin(configuration) { client in
                try await client.perform(
                    "SELECT count(*) FROM information_schema.tables WHERE table_schema = 'app_com_example_racers'"
                ).first?.decode(Int.self) ?? 0
            }
            #expect(tables >= 15, "the schema holds \(tables) tables")
            try await PostgresTestDatabase.withStores(1, configuration) { stores in
                let statistics = try await stores[0].statistics()
                #expect(statistics.orders == 0 && statistics.transactions == 0 && statistics.grants == 0)
                #expect(statistics.auditEvents == 0)
                #expect(try await stores[0].balances(of: UserID("alice")).isEmpty)
            }
        }
    }

    /// The same user in two apps' ledgers has two wallets; a deposit in one is not in the other.
    @Test func theSameUserInTwoAppsHasTwoWallets() async throws {
        try await PostgresTestDatabase.withFreshDatabase { configuration, _ in
            let dragons = configuration
            let racers = try configuration.inSchema("app_com_example_racers")
            try await PostgresTestDatabase.withStores(1, dragons) { first in
                try await PostgresTestDatabase.withStores(1, racers) { second in
                    try await first[0].migrate()
                    try await second[0].migrate()
                    let kim = UserID("kim")
                    let gold = try await first[0].applyWalletTransaction(
                        .init(id: "d1", userID: kim, amounts: ["gold": 60], reason: "welcome", cause: "admin"),
                        now: Date())
                    // The same idempotency id in the other app is another transaction there.
                    let gems = try await second[0].applyWalletTransaction(
                        .init(id: "d1", userID: kim, amounts: ["gems": 10], reason: "welcome", cause: "admin"),
                        now: Date())
                    guard case .applied = gold, case .applied = gems else {
                        Issue.record("not both applied: \(gold), \(gems)")
                        return
                    }
                    #expect(try await first[0].balances(of: kim) == ["gold": 60])
                    #expect(try await second[0].balances(of: kim) == ["gems": 10])
                }
            }
        }
    }

    @Test func schemaNamesAreCheckedBeforeAnyConnection() throws {
        let configuration = try PostgresLedgerStore.Configuration(url: "postgres://purser@127.0.0.1:1/purser")
        for bad in ["", "App", "1app", "app-x", "app;drop", String(repeating: "a", count: 64)] {
            #expect(throws: StorageError.self) { try configuration.inSchema(bad) }
        }
        #expect(try configuration.inSchema("app_com_example_x").schema == "app_com_example_x")
    }
}
