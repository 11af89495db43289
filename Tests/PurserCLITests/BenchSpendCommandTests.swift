import Foundation
import Testing

/// `purser bench spend` with small numbers: the spend rate, the `GET /health` rate and their ratio, the rate with an
/// API key and its ratio to the legacy token's, and the check that every spend was taken once, on each ledger.
@Suite struct BenchSpendCommandTests {
    static func bench(_ extra: [String]) async throws -> PurserProcess.Run {
        let run = try await PurserProcess.run(
            ["bench", "spend", "--spends", "300", "--health-requests", "200", "--clients", "8"] + extra)
        #expect(run.status == 0, "\(run.stderr)")
        let spends = try #require(run.stdout.firstMatch(of: /spends per second: (\d+)/).flatMap { Double($0.1) })
        let health = try #require(run.stdout.firstMatch(of: /GET \/health per second: (\d+)/).flatMap { Double($0.1) })
        let ratio = try #require(run.stdout.firstMatch(of: /ratio spends\/health: ([0-9.]+)/).flatMap { Double($0.1) })
        #expect(spends > 0 && health > 0)
        // The ratio is of the measured rates, printed rounded to whole numbers: the ratio of the rounded figures may
        // differ from the one printed by that rounding (half a unit of each) and no more.
        func rounding(_ top: Double, _ bottom: Double) -> Double {
            0.5 / bottom + top * 0.5 / (bottom * (bottom - 0.5))
        }
        #expect(abs(ratio - spends / health) <= 0.002 + 0.01 * ratio + rounding(spends, health))
        let keyed = try #require(
            run.stdout.firstMatch(
                of:
                    /API key \(found in the ledger per request\): (\d+) spends per second; ratio key\/admin.token: ([0-9.]+)/
            ))
        let (keyRate, keyRatio) = (try #require(Double(keyed.1)), try #require(Double(keyed.2)))
        #expect(
            keyRate > 0 && abs(keyRatio - keyRate / spends) <= 0.002 + 0.01 * keyRatio + rounding(keyRate, spends),
            "\(run.stdout)")
        // Both rounds, the legacy token's and the key's, each spend once.
        #expect(run.stdout.contains("exactly once: applied 600 of 600; wallets off 0"), "\(run.stdout)")
        return run
    }

    @Test func printsBothRatesAndTakesEverySpendOnceOnSQLite() async throws {
        #expect(try await Self.bench([]).stdout.contains("ledger: SQLite"))
    }

    /// Needs `PURSER_TEST_DATABASE_URL`.
    @Test(
        .enabled(
            if: ProcessInfo.processInfo.environment["PURSER_TEST_DATABASE_URL"] != nil,
            "set PURSER_TEST_DATABASE_URL (scripts/postgres.sh start DIR prints one) to run"))
    func printsBothRatesAndTakesEverySpendOnceOnPostgres() async throws {
        let server = try #require(ProcessInfo.processInfo.environment["PURSER_TEST_DATABASE_URL"])
        #expect(
            try await Self.bench(["--storage", "postgres", "--database-url", server]).stdout.contains("PostgreSQL"))
    }
}
