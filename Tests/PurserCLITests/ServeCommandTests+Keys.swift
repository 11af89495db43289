import Foundation
import PurserChaos
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `purser keys` against two running replicas of `serve` on one ledger: a key made on the command line works on
/// both, and one revoked through one replica is refused by the other at its next request.
extension ServeCommandTests {
    @Test func keysMadeOnTheCommandLineHoldOnEveryReplicaAndARevocationAtOnce() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let setup = try await simulatedServe(in: directory)
        defer { setup.simulator.terminate() }
        let (first, firstPort) = try await launch(setup)
        defer { first.terminate() }
        let (second, secondPort) = try await launch(setup)
        defer { second.terminate() }
        let ledger = [
            "--data-dir", setup.data.path,
        ]

        let made = try await PurserProcess.run(
            [
                "keys", "create", "--name", "game-backend", "--scopes", "wallet:write,ledger:read", "--expires-in",
                "90",
                "--operator", "ops",
            ] + ledger)
        #expect(made.status == 0, "\(made.stderr)")
        let secret = try #require(made.stdout.firstMatch(of: /secret: (purser_\S+)/).map { String($0.1) })
        #expect(made.stdout.contains("scopes: wallet:write, ledger:read") && made.stdout.contains("apps: every app"))
        // A keeper of keys sees and revokes only the keys it could have made: the backend's needs its scopes too.
        let keeper = try await PurserProcess.run(
            ["keys", "create", "--name", "keeper", "--scopes", "keys:admin,wallet:write,ledger:read"] + ledger)
        let keeperSecret = try #require(keeper.stdout.firstMatch(of: /secret: (purser_\S+)/).map { String($0.1) })
        let desk = try await PurserProcess.run(["keys", "create", "--name", "desk", "--scopes", "keys:admin"] + ledger)
        let deskSecret = try #require(desk.stdout.firstMatch(of: /secret: (purser_\S+)/).map { String($0.1) })

        let deposit = #"{"id":"w1","amounts":{"gold":30},"reason":"welcome"}"#
        let depositURL = "/admin/v1/wallets/kim/transactions"
        #expect(try await admin("POST", "http://127.0.0.1:\(firstPort)\(depositURL)", secret, json: deposit) == 200)
        #expect(try await admin("GET", "http://127.0.0.1:\(secondPort)/admin/v1/wallets/kim", secret) == 200)
        // Its scopes only: no grants, no key management.
        #expect(try await admin("GET", "http://127.0.0.1:\(secondPort)/admin/v1/keys", secret) == 403)

        let listed = try await PurserProcess.run(["keys", "list"] + ledger)
        #expect(listed.status == 0 && listed.stdout.contains("game-backend\tactive\twallet:write,ledger:read\t*"))
        #expect(!listed.stdout.contains(secret))

        // Revoked through one replica, refused by the other at once; a keys:admin key alone finds no such key.
        #expect(
            try await admin("DELETE", "http://127.0.0.1:\(firstPort)/admin/v1/keys/game-backend", deskSecret) == 404)
        #expect(try await admin("GET", "http://127.0.0.1:\(secondPort)/admin/v1/wallets/kim", secret) == 200)
        #expect(
            try await admin("DELETE", "http://127.0.0.1:\(firstPort)/admin/v1/keys/game-backend", keeperSecret) == 200)
        #expect(try await admin("GET", "http://127.0.0.1:\(secondPort)/admin/v1/wallets/kim", secret) == 401)
        let revokedList = try await PurserProcess.run(["keys", "list", "--json"] + ledger)
        #expect(revokedList.stdout.contains(#""state" : "revoked""#), "\(revokedList.stdout)")

        let unknown = try await PurserProcess.run(["keys", "revoke", "nobody"] + ledger)
        #expect(unknown.status == 1 && unknown.stderr.hasPrefix("not_found: "), "\(unknown.stderr)")
        let badScope = try await PurserProcess.run(
            ["keys", "create", "--name", "x", "--scopes", "wallet:spend"] + ledger)
        #expect(badScope.status == 1 && badScope.stderr.hasPrefix("invalid_scope: "), "\(badScope.stderr)")
        #expect(first.output.contains("admin.token is the legacy form") == false)
    }

    /// The status of an admin request with the key `secret`.
    func admin(_ method: String, _ url: String, _ secret: String, json: String? = nil) async throws -> Int {
        var request = URLRequest(url: URL(string: url)!)
        request.httpMethod = method
        request.setValue("Bearer \(secret)", forHTTPHeaderField: "Authorization")
        if let json {
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.httpBody = Data(json.utf8)
        }
        let (_, response) = try await URLSession.shared.data(for: request)
        return (response as? HTTPURLResponse)?.statusCode ?? 0
    }
}
