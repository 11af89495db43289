import Foundation
import Testing

/// `purser chaos` from the command line: a short run's JSON report, and clear refusals of bad options.
@Suite struct ChaosCommandTests {
    @Test func printsAJSONReportAndExitsZeroWhenNothingBroke() async throws {
        let run = try await PurserProcess.run([
            "chaos", "--purchases", "60", "--devices", "4", "--users", "6", "--seed", "5",
            "--baseline-purchases", "30", "--json", "--quiet",
        ])
        #expect(run.status == 0, "\(run.stderr)")
        let report = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
        #expect(report?["seed"] as? Int == 5)
        #expect(report?["passed"] as? Bool == true)
        let strategies = report?["strategies"] as? [[String: Any]] ?? []
        #expect(
            strategies.map { $0["strategy"] as? String } == [
                "purser", "finish-then-verify", "in-app-0-only",
                "no-dedup", "trust-username",
            ])
        #expect(run.stderr.contains("chaos: seed 5"))
    }

    /// The server as a real `purser serve` child process, killed with SIGKILL and restarted on its SQLite ledger.
    @Test func killsAndRestartsARealServerProcessAndStillLosesNothing() async throws {
        let run = try await PurserProcess.run([
            "chaos", "--purchases", "120", "--devices", "6", "--users", "10", "--seed", "11", "--replicas", "1",
            "--faults", "server-kill,response-lost,client-crash,database-failover", "--rate", "server-kill=0.05",
            "--baselines", "none", "--json", "--quiet",
        ])
        #expect(run.status == 0, "\(run.stderr)")
        let report = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
        #expect(report?["passed"] as? Bool == true)
        #expect(report?["replicas"] as? Int == 1)
        // SQLite has no standby: database-failover is skipped, and the report says so.
        #expect(report?["skipped"] as? [String] == ["database-failover"])
        let purser = (report?["strategies"] as? [[String: Any]])?.first
        let kills = purser?["kills"] as? [[String: Any]] ?? []
        let planned = (report?["families"] as? [[String: Any]])?.first { $0["family"] as? String == "server-kill" }
        #expect(!kills.isEmpty)
        #expect(kills.count == planned?["injected"] as? Int)
        #expect(Set(kills.compactMap { $0["pid"] as? Int }).count == kills.count, "each kill hit a new process")
        // The replica's memory after each tenth of the purchases, and its peak, read from the serve process.
        let tenths = purser?["tenths"] as? [[String: Any]] ?? []
        #expect(tenths.count == 10)
        let resident = tenths.compactMap { ($0["replicasResident"] as? [Int])?.first }
        #expect(resident.count == 10 && resident.filter { $0 > 0 }.count >= 8, "\(resident)")
        let peaks = purser?["replicasPeakResident"] as? [Int] ?? []
        #expect(peaks.count == 1 && (peaks.first ?? 0) > 0)
    }

    /// A short run whose replica logs in JSON (`--log-format json`): every line each start of the replica wrote, in
    /// the run's `purser/logs` (one file per start: SIGKILLs restart it), is a JSON object with `time`, `level` and
    /// `message`, whatever the faults made it log; and its decisions' lines carry the request, app, user and
    /// transaction.
    @Test func everyLineAJSONReplicaWritesIsJSON() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("purser-chaos-json-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let run = try await PurserProcess.run([
            "chaos", "--purchases", "200", "--devices", "8", "--users", "16", "--concurrency", "4", "--baselines",
            "none", "--seed", "7", "--storage", "sqlite", "--replicas", "1", "--log-format", "json",
            "--rate", "server-kill=0.03", "--directory", directory.path, "--json", "--quiet",
        ])
        #expect(run.status == 0, "\(run.stderr)")
        let logs = directory.appendingPathComponent("purser/logs")
        let files = try FileManager.default.contentsOfDirectory(atPath: logs.path).filter { $0.hasSuffix(".log") }
            .sorted()
        #expect(files.count > 1, "the replica was never killed and started again: \(files)")
        var entries: [[String: String]] = []
        for name in files {
            let text = try String(contentsOf: logs.appendingPathComponent(name), encoding: .utf8)
            entries += try JSONLogLines.parse(text, file: "logs/\(name)")
        }
        #expect(entries.contains { $0["message"]?.contains("listening on 127.0.0.1:") == true })
        let decisions = entries.filter { $0["message"] == "transaction decided" }
        #expect(!decisions.isEmpty)
        for key in ["request_id", "app", "user_id", "decision", "transaction_id"] {
            #expect(decisions.allSatisfy { $0[key]?.isEmpty == false }, "a decision line without \(key)")
        }
    }

    @Test func refusesWhatAReplicaSetCannotDo() async throws {
        let kills = try await PurserProcess.run(["chaos", "--faults", "server-kill"])
        #expect(kills.status != 0)
        #expect(kills.stderr.contains("server-kill needs the server as processes"))
        let sqlite = try await PurserProcess.run(["chaos", "--replicas", "2"])
        #expect(sqlite.status != 0)
        #expect(sqlite.stderr.contains("SQLite serves one replica"))
        // Without database-failover (which starts its own servers) PostgreSQL needs a database URL.
        let postgres = try await PurserProcess.run([
            "chaos", "--storage", "postgres", "--replicas", "2", "--faults", "server-kill",
        ])
        #expect(postgres.status != 0 || ProcessInfo.processInfo.environment["PURSER_DATABASE_URL"] != nil)
    }

    /// Two replicas on a PostgreSQL primary and synchronous standby the run starts itself: the primary is killed with
    /// SIGKILL and the standby promoted under load, and nothing a client saw is lost. Needs PostgreSQL's server
    /// programs; runs where the PostgreSQL tests run (`PURSER_TEST_DATABASE_URL` set).
    @Test(.enabled(if: ProcessInfo.processInfo.environment["PURSER_TEST_DATABASE_URL"] != nil))
    func failsOverItsOwnDatabaseUnderLoadAndLosesNothing() async throws {
        let run = try await PurserProcess.run([
            "chaos", "--purchases", "120", "--devices", "8", "--users", "12", "--seed", "3", "--storage", "postgres",
            "--replicas", "2", "--faults", "database-failover,response-lost,client-crash", "--rate",
            "database-failover=0.02", "--baselines", "none", "--json", "--quiet",
        ])
        #expect(run.status == 0, "\(run.stderr)")
        let report = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
        #expect(report?["passed"] as? Bool == true, "\(run.stdout)")
        let purser = (report?["strategies"] as? [[String: Any]])?.first
        let failovers = purser?["failovers"] as? [[String: Any]] ?? []
        #expect(!failovers.isEmpty)
        for failover in failovers {
            let answers = failover["answersInGap"] as? [String: Int] ?? [:]
            #expect(answers.keys.allSatisfy { !$0.hasPrefix("500") }, "\(answers)")
            #expect((failover["gapSeconds"] as? Double ?? 60) < 30)
        }
    }

    /// `--database-ha` names what runs database-failover's PostgreSQL: only with that family on PostgreSQL.
    @Test func refusesADatabaseManagerWithoutADatabaseFailover() async throws {
        let unknown = try await PurserProcess.run(["chaos", "--database-ha", "stolon"])
        #expect(unknown.status != 0)
        #expect(unknown.stderr.contains("--database-ha must be harness, patroni or patroni-pgbouncer, not 'stolon'"))
        let sqlite = try await PurserProcess.run(["chaos", "--database-ha", "patroni", "--replicas", "1"])
        #expect(sqlite.status != 0)
        #expect(sqlite.stderr.contains("--database-ha drives the database of database-failover"), "\(sqlite.stderr)")
    }

    @Test func refusesUnknownFamiliesAndRatesOutOfRange() async throws {
        let family = try await PurserProcess.run(["chaos", "--faults", "client-crash,gremlins"])
        #expect(family.status != 0)
        #expect(family.stderr.contains("unknown fault family 'gremlins'"))
        let rate = try await PurserProcess.run(["chaos", "--rate", "client-crash=1.5"])
        #expect(rate.status != 0)
        #expect(rate.stderr.contains("within 0...1"))
        let seed = try await PurserProcess.run(["chaos", "--seed", "soon"])
        #expect(seed.status != 0)
        #expect(seed.stderr.contains("--seed must be"))
    }
}
