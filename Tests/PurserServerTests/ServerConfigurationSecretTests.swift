import Configuration
import Foundation
import Logging
import PurserServer
import Testing

/// Secrets read by `ServerConfiguration.load` never reach a log line or an error message.
@Suite struct ServerConfigurationSecretTests {
    /// A log handler that keeps every line, message and metadata, as text.
    struct CapturingLogHandler: LogHandler {
        final class Lines: @unchecked Sendable {
            private let lock = NSLock()
            private var lines: [String] = []
            func append(_ line: String) { lock.withLock { lines.append(line) } }
            var all: [String] { lock.withLock { lines } }
        }

        let lines: Lines
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            let fields = (event.metadata ?? [:]).sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
            lines.append("\(event.message) \(fields.joined(separator: " "))")
        }
    }

    @Test func accessLogsRedactSecretsButShowOtherValues() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("purser-secrets-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("purser.json")
        try #"{"port": 9031, "admin": {"token": "file-admin-token-4b1d"}, "sharedSecret": "file-shared-7c2e"}"#
            .write(to: file, atomically: true, encoding: .utf8)
        let environment = [
            "PURSER_JWT_SECRET": "legacy-jwt-secret-9f3a-at-least-32-bytes",
            "PURSER_AUTH_JWT_ISSUER": "login.example",
            "PURSER_DATABASE_URL": "postgres://purser:url-password-5e6f@db.example:5432/ledger",
            "PURSER_DATABASE_PASSWORD": "db-password-8a9b",
        ]
        let lines = CapturingLogHandler.Lines()
        let logger = Logger(label: "test") { _ in CapturingLogHandler(lines: lines) }

        let settings = try await ServerConfiguration.load(file: file, environment: environment, logger: logger)
        #expect(settings.auth.jwt.secret == "legacy-jwt-secret-9f3a-at-least-32-bytes")
        #expect(settings.admin.token == "file-admin-token-4b1d")
        #expect(settings.database.url == "postgres://purser:url-password-5e6f@db.example:5432/ledger")
        #expect(settings.database.password == "db-password-8a9b")

        let log = lines.all.joined(separator: "\n")
        // The accesses are logged, with ordinary values in the clear ...
        #expect(log.contains("auth.jwt.secret") && log.contains("admin.token") && log.contains("sharedSecret"))
        #expect(log.contains("9031") && log.contains("login.example"))
        // ... and the secrets redacted, wherever they came from.
        #expect(log.contains("database.url") && log.contains("database.password"))
        for secret in [
            "legacy-jwt-secret-9f3a", "file-admin-token-4b1d", "file-shared-7c2e", "url-password-5e6f",
            "db-password-8a9b",
        ] {
            #expect(!log.contains(secret), "\(secret) leaked into the access log")
        }
        #expect(log.contains("<REDACTED>"))
    }

    @Test func anErrorAboutASecretKeyDoesNotQuoteItsValue() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("purser-secrets-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("purser.json")
        try #"{"admin": {"token": 8675309112}}"#.write(to: file, atomically: true, encoding: .utf8)
        do {
            _ = try await ServerConfiguration.load(file: file, environment: [:])
            Issue.record("a number where the admin token's string belongs was accepted")
        } catch let error as ConfigurationError {
            #expect(error.description.contains("admin.token"), "\(error)")
            #expect(!error.description.contains("8675309112"), "\(error)")
        }
    }
}
