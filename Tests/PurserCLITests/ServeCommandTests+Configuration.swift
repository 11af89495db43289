import Foundation
import PurserChaos
import Testing

/// `serve` resolves its configuration exactly as `config check` does: it refuses what `config check` refuses, with the
/// same problems, every one of them.
extension ServeCommandTests {
    /// The file of `ConfigCheckCommandTests.listsEveryKindOfProblemInOneRun`: `serve` names the same problems, each
    /// on its own line, exits 1 and leaves no ledger behind. It once named only the first key of the wrong type.
    @Test func refusesWhatConfigCheckRefusesNamingTheSameProblems() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (file, named) = try ConfigCheckCommandTests.everyKindOfProblem(in: directory)
        let check = try await PurserProcess.run(["config", "check", "--config", file.path])
        let checked = check.stderr.split(separator: "\n").filter { $0.hasPrefix("problem: ") }
            .map { $0.dropFirst("problem: ".count) }
        #expect(check.status == 1 && checked.count == named.count, "\(check.stderr)")

        let serve = try await start(["serve", "--config", file.path])
        let text = await serve.outputAfterExit()
        #expect(serve.terminationStatus == 1)
        let refused = text.split(separator: "\n").filter { $0.hasPrefix("purser: ") }.map { $0.dropFirst(8) }
        #expect(refused == checked, "serve: \(text)\nconfig check: \(check.stderr)")
        for part in named {
            #expect(refused.contains { $0.contains(part) }, "serve does not name \(part): \(text)")
        }
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("data/purser.sqlite").path))
    }
}
