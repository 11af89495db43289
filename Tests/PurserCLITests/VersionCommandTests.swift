import Foundation
import Testing

/// `purser --version` prints the version the changelog and the HTTP contract name.
@Suite struct VersionCommandTests {
    @Test func versionMatchesTheChangelogAndTheContract() async throws {
        let run = try await PurserProcess.run(["--version"])
        #expect(run.status == 0, "\(run.stderr)")
        let printed = run.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(printed.split(separator: ".").count == 3, "not a version: \(printed)")

        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let changelog = try String(contentsOf: root.appendingPathComponent("CHANGELOG.md"), encoding: .utf8)
        // Keep a Changelog: "## [Unreleased]" gathers what is not released yet; the newest "## [X.Y.Z] - date" is this
        // build's version.
        let newest = changelog.split(separator: "\n").first { $0.hasPrefix("## [") && !$0.hasPrefix("## [Unreleased]") }
        #expect(newest?.hasPrefix("## [\(printed)] - ") == true, "CHANGELOG's newest version: \(newest ?? "none")")

        let contract = try String(contentsOf: root.appendingPathComponent("openapi.yaml"), encoding: .utf8)
        #expect(contract.contains("\n  version: \(printed)\n"), "openapi.yaml's info.version is not \(printed)")
    }
}
