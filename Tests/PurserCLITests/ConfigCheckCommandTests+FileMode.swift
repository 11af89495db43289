import Foundation
import Testing

/// `purser config check` on a configuration file that holds secrets: a warning while its group or others may read
/// it, naming the secrets' keys (never their values) and the fix; nothing once it is the owner's alone, or when it
/// holds no secret.
extension ConfigCheckCommandTests {
    @Test func warnsWhenAFileWithSecretsIsReadableByOthers() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("purser-check-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try #"{"products": {"gold60": {"type": "consumable", "grants": {"gold": 60}}}}"#
            .write(to: directory.appendingPathComponent("catalog.json"), atomically: true, encoding: .utf8)
        let file = directory.appendingPathComponent("purser.json")
        try #"""
        {"port": 0, "dataDirectory": "data", "appStore": "simulator", "auth": {"mode": "development"},
         "catalogFile": "catalog.json", "admin": {"token": "tok-secret-4711"}, "database": {"password": null},
         "webhooks": {"endpoints": [{"url": "https://game.example/hook", "secret": "whsec_MDEyMzQ1Njc4OWFiY2RlZmdoaWprbG1u"}]}}
        """#.write(to: file, atomically: true, encoding: .utf8)
        let check = { (mode: Int) in
            try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: file.path)
            return try await PurserProcess.run(["config", "check", "--config", file.path])
        }
        for mode in [0o644, 0o640, 0o604] {
            let open = try await check(mode)
            #expect(open.status == 0, "\(open.stderr)")
            let warning = try #require(
                open.stderr.split(separator: "\n").first { $0.hasPrefix("warning: ") }, "\(open.stderr)")
            #expect(warning.contains("admin.token, webhooks.endpoints.0.secret"), "\(warning)")
            #expect(warning.contains("mode \(String(mode, radix: 8))") && warning.contains("chmod 600"), "\(warning)")
            #expect(
                !warning.contains("database.password") && !open.stderr.contains("tok-secret-4711")
                    && !open.stderr.contains("MDEyMzQ1"))
        }
        let closed = try await check(0o600)
        #expect(closed.status == 0 && !closed.stderr.contains("warning: "), "\(closed.stderr)")

        try #"""
        {"port": 0, "dataDirectory": "data", "appStore": "simulator", "auth": {"mode": "development"},
         "catalogFile": "catalog.json"}
        """#.write(to: file, atomically: true, encoding: .utf8)
        let plain = try await check(0o644)
        #expect(plain.status == 0 && !plain.stderr.contains("warning: "), "\(plain.stderr)")
    }
}
