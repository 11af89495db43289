import Foundation
import PurserServer
import Testing

/// `http.drainSeconds`: 5 by default, read from the file and the environment, and a negative one is a problem that
/// names the key.
@Suite struct DrainConfigurationTests {
    @Test func theDrainHasADefaultAKeyAndABound() async throws {
        #expect(try await ServerConfiguration.load(file: nil, environment: [:]).http.drainSeconds == 5)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("purser-drain-\(UUID()).json")
        try #"{"http": {"drainSeconds": 12.5}}"#.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        #expect(try await ServerConfiguration.load(file: file, environment: [:]).http.drainSeconds == 12.5)
        let negative = try await ServerConfiguration.load(
            file: file, environment: ["PURSER_HTTP_DRAIN_SECONDS": "-1"])
        #expect(negative.http.drainSeconds == -1)
        #expect(negative.problems().contains { $0.hasPrefix("http.drainSeconds must be 0") }, "\(negative.problems())")
    }
}
