import Foundation
import PurserCore
import PurserStorage
import Testing

extension LedgerStoreConformance {
    /// API keys: stored once by name (a revoked name is not reused), found by their secret's hash, listed oldest
    /// first, revoked once, each change with its audit record.
    public func keepsAPIKeysAndRevokesThemOnce() async throws {
        let backend = APIKey(
            name: "game-backend", secretHash: String(repeating: "a", count: 64),
            scopes: ["wallet:write", "ledger:read"],
            apps: ["com.example.game"], createdAt: now, createdBy: "cli", expiresAt: now + 86_400 * 90)
        let support = APIKey(
            name: "support-desk", secretHash: String(repeating: "b", count: 64), scopes: ["*"], apps: nil,
            createdAt: now + 1, createdBy: "key:game-backend")
        try await store.createAPIKey(backend)
        try await store.createAPIKey(support)
        #expect(try await store.apiKeys() == [backend, support])
        #expect(try await store.apiKey(secretHash: backend.secretHash) == backend)
        #expect(try await store.apiKey(secretHash: String(repeating: "c", count: 64)) == nil)

        var again = support
        again.secretHash = String(repeating: "d", count: 64)
        await #expect(throws: StorageError(.duplicateKey, "")) { try await store.createAPIKey(again) }
        #expect(try await store.apiKey(secretHash: again.secretHash) == nil)

        let revoked = try #require(try await store.revokeAPIKey(named: "support-desk", by: "cli", now: now + 5))
        #expect(revoked.revokedAt == now + 5 && !revoked.isUsable(at: now + 5))
        #expect(try await store.revokeAPIKey(named: "support-desk", by: "someone", now: now + 9) == revoked)
        #expect(try await store.revokeAPIKey(named: "nobody", by: "cli", now: now + 9) == nil)
        #expect(try await store.apiKey(secretHash: support.secretHash) == revoked)
        await #expect(throws: StorageError(.duplicateKey, "")) { try await store.createAPIKey(support) }

        #expect(backend.isUsable(at: now + 86_399 * 90) && !backend.isUsable(at: now + 86_400 * 90))
        let trail = try await store.auditTrail(of: "support-desk")
        #expect(trail.map(\.event) == ["created", "revoked"])
        #expect(trail.map(\.cause) == ["by key:game-backend", "by cli"] && trail.allSatisfy { $0.subject == .apiKey })
        #expect(
            try await store.auditTrail(of: "game-backend").first?.detail == "scopes wallet:write ledger:read; "
                + "apps com.example.game; expires 2024-03-31T00:00:00Z")
    }
}
