import Foundation
import HTTPTypes
import HummingbirdTesting
import Logging
import NIOCore
import PurserCore
import PurserServer
import PurserStorage
import Testing

/// `GET /admin/v1/users/{id}/export` and `DELETE /admin/v1/users/{id}` over HTTP: the export holds every row about the
/// user, the erasure leaves the id in no row of any table, keeps every balance and the ledger check, is audited, and
/// names the same pseudonym each time for one key.
@Suite struct UserDataTests {
    @Test func exportsThenErasesAUserAndKeepsTheMoney() async throws {
        try await TestServer.run { server, client in
            _ = try await WebhookDeliveryTests.credit(["gone-user-3", "stays-here"], on: server, client: client)
            let deposit = #"{"id": "bonus-77", "amounts": {"gold": 40}, "reason": "welcome", "metadata": {"a": 1}}"#
            #expect(
                try await client.admin(.post, "/admin/v1/wallets/gone-user-3/transactions", body: deposit).status
                    == .ok)
            let export = try await client.admin(.get, "/admin/v1/users/gone-user-3/export")
            #expect(export.status == .ok)
            let exported = try Self.decoder.decode(
                UserDataService.Export.self, from: Data(String(buffer: export.body).utf8))
            #expect(exported.userId == "gone-user-3")
            for table in ["orders", "apple_transactions", "grants", "audit_log", "outbox", "wallet_transactions"] {
                #expect(exported.tables[table]?.isEmpty == false, "the export has the user's \(table)")
            }
            #expect(
                exported.tables.values.joined().allSatisfy { row in
                    row.values.contains { $0.text.map(ErasureText("gone-user-3").occurs(in:)) ?? false }
                }, "only rows about the user")
            #expect(try await Self.ledgerHolds("gone-user-3", server), "the raw scan sees the user before")
            let before = try await server.store.integrity()

            let erase = try await client.admin(.delete, "/admin/v1/users/gone-user-3")
            #expect(erase.status == .ok, "\(String(buffer: erase.body))")
            let erased = try JSONDecoder().decode(
                UserDataService.Erased.self, from: Data(String(buffer: erase.body).utf8))
            #expect(erased.userId.hasPrefix("erased-") && erased.userId.count == 39)
            #expect(erased.remaining == 0 && erased.kept.isEmpty)
            #expect(try await !Self.ledgerHolds("gone-user-3", server), "in no row of any table, nor any index")
            #expect(try await Self.ledgerHolds("stays-here", server), "another user stays")

            let after = try await server.store.integrity()
            #expect(after.findings.isEmpty && after.balancesChecksum == before.balancesChecksum)
            let wallet = try await client.admin(.get, "/admin/v1/wallets/\(erased.userId)")
            #expect(String(buffer: wallet.body).contains(#""gold":100"#), "60 bought and 40 given, now the pseudonym's")
            #expect(try await server.store.auditTrail(of: erased.userId).map(\.cause) == ["support by sam"])

            #expect(try await client.admin(.get, "/admin/v1/users/gone-user-3/export").status == .notFound)
            #expect(try await client.admin(.delete, "/admin/v1/users/gone-user-3").status == .notFound)
            let users = UserDataService(
                store: server.store, erasureKey: nil, adminToken: TestServer.adminToken, now: { Date() })
            #expect(try users.pseudonym(for: "gone-user-3").rawValue == erased.userId, "one key, one pseudonym")
            #expect(try users.pseudonym(for: "gone-user-30").rawValue != erased.userId)
        }
    }

    static var decoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }

    @Test func refusesAnErasureWithoutAKey() async throws {
        try await TestServer.run { server, _ in
            let users = UserDataService(store: server.store, erasureKey: nil, adminToken: nil, now: { Date() })
            await #expect(throws: ServiceError(.erasureNotConfigured, "")) {
                _ = try await users.erase("anyone", cause: "test")
            }
        }
    }

    /// Whether `id`'s bytes are anywhere in a compacted copy of the SQLite ledger (`VACUUM INTO`: every table and
    /// index, no free pages): an independent look at the file, not the store's search.
    static func ledgerHolds(_ id: String, _ server: TestServer) async throws -> Bool {
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("purser-scan-\(UUID()).sqlite")
        defer { try? FileManager.default.removeItem(at: copy) }
        _ = try await SQLiteLedgerStore.backup(ledger: server.ledgerPath, to: copy.path, logger: .init(label: "test"))
        let bytes = try Data(contentsOf: copy)
        return bytes.range(of: Data(id.utf8)) != nil
    }
}
