import Foundation
import Testing

/// `purser chaos` from the command line: a short run's JSON report, and clear refusals of bad options.
@Suite struct ChaosCommandTests {
    @Test func printsAJSONReportAndExitsZeroWhenNothingBroke() throws {
        let run = try PurserProcess.run([
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

    @Test func refusesUnknownFamiliesAndRatesOutOfRange() throws {
        let family = try PurserProcess.run(["chaos", "--faults", "client-crash,gremlins"])
        #expect(family.status != 0)
        #expect(family.stderr.contains("unknown fault family 'gremlins'"))
        let rate = try PurserProcess.run(["chaos", "--rate", "client-crash=1.5"])
        #expect(rate.status != 0)
        #expect(rate.stderr.contains("within 0...1"))
        let seed = try PurserProcess.run(["chaos", "--seed", "soon"])
        #expect(seed.status != 0)
        #expect(seed.stderr.contains("--seed must be"))
    }
}
