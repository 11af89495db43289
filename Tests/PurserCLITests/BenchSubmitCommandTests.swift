import Foundation
import Testing

/// `purser bench submit` with small numbers: both rates, their ratio, and the exactly-once check, on each ledger.
@Suite struct BenchSubmitCommandTests {
    /// The figures a run printed: credited submissions per second, `GET /health` per second, and their ratio.
    struct Figures {
        var credited: Double
        var health: Double
        var ratio: Double

        init(_ output: String) throws {
            let credited = try #require(output.firstMatch(of: /credited submissions per second: (\d+)/))
            let health = try #require(output.firstMatch(of: /GET \/health per second: (\d+)/))
            let ratio = try #require(output.firstMatch(of: /ratio credited\/health: ([0-9.]+)/))
            self.credited = try #require(Double(credited.1))
            self.health = try #require(Double(health.1))
            self.ratio = try #require(Double(ratio.1))
        }
    }

    static func bench(_ extra: [String]) async throws -> (PurserProcess.Run, Figures) {
        let run = try await PurserProcess.run(
            ["bench", "submit", "--purchases", "200", "--health-requests", "200", "--clients", "4"] + extra)
        #expect(run.status == 0, "\(run.stderr)")
        let figures = try Figures(run.stdout)
        #expect(figures.credited > 0)
        #expect(figures.health > 0)
        // The rates are printed rounded to whole numbers: on a loaded machine they are small, and the ratio of the
        // rounded figures may differ from the one measured by that rounding (half a unit of each) and no more.
        let rounding = 0.5 / figures.health + figures.credited * 0.5 / (figures.health * (figures.health - 0.5))
        #expect(abs(figures.ratio - figures.credited / figures.health) <= 0.002 + 0.01 * figures.ratio + rounding)
        return (run, figures)
    }

    @Test func printsBothRatesAndTheirRatioOnSQLite() async throws {
        let (run, _) = try await Self.bench([])
        #expect(run.stdout.contains("ledger: SQLite, synchronous=FULL"))
        #expect(
            run.stdout.contains(
                "exactly once: delivered 200 of 200; ledger credited 200 (0 preloaded), grants 200, wallets off 0"))
        // Every settlement writes pages (a transaction row, a grant, an outbox event): at least one per commit.
        let pages = try #require(
            run.stdout.firstMatch(of: /([\d.]+) pages written to the WAL per commit, ([\d.]+) per settlement/),
            "\(run.stdout)")
        #expect(try #require(Double(pages.1)) >= 1 && (try #require(Double(pages.2))) > 0, "\(run.stdout)")
    }

    /// `--threads` is the servers' event-loop count (`http.threads`), read back from the server the bench built.
    @Test func servesOnTheEventLoopsItWasGiven() async throws {
        let (run, _) = try await Self.bench(["--threads", "3"])
        #expect(run.stdout.contains("server event-loop threads: 3 per server (http.threads 3)"), "\(run.stdout)")
        let (one, _) = try await Self.bench(["--threads", "1"])
        #expect(one.stdout.contains("server event-loop threads: 1 per server (http.threads 1)"), "\(one.stdout)")
        let refused = try await PurserProcess.run(["bench", "submit", "--threads", "2000"])
        #expect(refused.status != 0 && refused.stderr.contains("--threads must be 0 to 1024"), "\(refused.stderr)")
    }

    /// With `--preload`, two rounds in one run: the empty ledger, then the preloaded one, and how they compare.
    @Test func measuresTheEmptyAndThePreloadedLedgerInOneRun() async throws {
        let (run, _) = try await Self.bench(["--preload", "300"])
        #expect(run.stdout.contains("round 1: the empty ledger"))
        #expect(run.stdout.contains("preloaded 300 settled purchases"))
        #expect(run.stdout.contains("round 2: the ledger preloaded with 300"))
        #expect(run.stdout.matches(of: /credited submissions per second: \d+/).count == 2)
        #expect(run.stdout.contains("ledger credited 200 (0 preloaded), grants 200, wallets off 0"))
        #expect(run.stdout.contains("ledger credited 700 (300 preloaded), grants 700, wallets off 0"))
        #expect(run.stdout.contains("preloaded vs empty ledger: credited/s "))
    }

    @Test func refusesPostgresWithoutADatabase() async throws {
        let run = try await PurserProcess.run(
            ["bench", "submit", "--storage", "postgres"], environment: ["PURSER_DATABASE_URL": ""])
        #expect(run.status != 0)
        #expect(run.stderr.contains("--database-url"))
    }

    /// Two servers in this process on one fresh PostgreSQL database. Needs `PURSER_TEST_DATABASE_URL`.
    @Test(
        .enabled(
            if: ProcessInfo.processInfo.environment["PURSER_TEST_DATABASE_URL"] != nil,
            "set PURSER_TEST_DATABASE_URL (scripts/postgres.sh start DIR prints one) to run"))
    func printsBothRatesOnPostgresWithTwoReplicas() async throws {
        let server = try #require(ProcessInfo.processInfo.environment["PURSER_TEST_DATABASE_URL"])
        let (run, _) = try await Self.bench(["--storage", "postgres", "--replicas", "2", "--database-url", server])
        #expect(run.stdout.contains("ledger: PostgreSQL (2 servers in this process on one database)"))
        #expect(run.stdout.contains("exactly once: delivered 200 of 200; ledger credited 200 (0 preloaded)"))
    }
}
