import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import PurserCore
import PurserServer
import PurserStorage
import Testing

/// Reading, listing and revoking a key hold the caller to what creating one does: a key sees only the keys it could
/// have made (every scope held, every app its own), and any other name answers exactly as a name no key has.
extension APIKeyTests {
    @Test func aKeyTheCallerCouldNotMakeIsAnsweredAsAnUnknownOneAndStaysActive() async throws {
        try await TestServer.run { server, client in
            let app = TestServer.bundleID
            let keeper = try await Self.makeLimited("keeper", scopes: ["keys:admin"], apps: [app], client: client)
            _ = try await Self.makeLimited("desk", scopes: ["keys:admin"], apps: [app], client: client)
            _ = try await Self.makeLimited("backend", scopes: ["wallet:write"], apps: [app], client: client)
            _ = try await Self.make("everywhere", scopes: ["keys:admin"], client: client)
            _ = try await Self.storeKey(named: "other-game", apps: ["com.example.other"], in: server.store)

            let listed = try await client.key(keeper, .get, "/admin/v1/keys", body: nil)
            #expect(listed.status == .ok)
            #expect(Set(try listed.decode(Listed.self).keys.map(\.name)) == ["keeper", "desk"])

            let unknown = try await client.key(keeper, .get, "/admin/v1/keys/nobody", body: nil)
            #expect(unknown.status == .notFound && unknown.errorCode == "not_found")
            let unknownRevoke = try await client.key(keeper, .delete, "/admin/v1/keys/nobody", body: nil)
            for hidden in ["other-game", "backend", "everywhere"] {
                for (method, nobody) in [(HTTPRequest.Method.get, unknown), (.delete, unknownRevoke)] {
                    let answer = try await client.key(keeper, method, "/admin/v1/keys/\(hidden)", body: nil)
                    let (error, unknown) = (
                        try answer.decode(APIErrorResponse.self), try nobody.decode(APIErrorResponse.self)
                    )
                    #expect(
                        answer.status == nobody.status && error.error.code == unknown.error.code, "\(method) \(hidden)")
                    #expect(
                        error.error.message.replacingOccurrences(of: hidden, with: "nobody") == unknown.error.message,
                        "\(method) \(hidden)")
                }
            }
            // Nothing it could not see was revoked.
            let revoked = try await server.store.apiKeys().filter { $0.revokedAt != nil }.map(\.name)
            #expect(revoked.isEmpty, "\(revoked)")

            let read = try await client.key(keeper, .get, "/admin/v1/keys/desk", body: nil)
            #expect(read.status == .ok && String(buffer: read.body).contains(#""name":"desk""#))
            #expect(!String(buffer: read.body).contains("secret"))
            let revoke = try await client.key(keeper, .delete, "/admin/v1/keys/desk", body: nil)
            #expect(revoke.status == .ok && String(buffer: revoke.body).contains(#""state":"revoked""#))
            // The admin token (every scope, every app) reads them all.
            for name in ["other-game", "backend", "everywhere", "desk"] {
                #expect(try await client.admin(.get, "/admin/v1/keys/\(name)").status == .ok, "\(name)")
            }
        }
    }

    struct Listed: Decodable {
        struct Key: Decodable { var name: String }
        var keys: [Key]
    }

    /// A key made through the API, limited to `apps`; its secret.
    static func makeLimited(_ name: String, scopes: [String], apps: [String], client: some TestClientProtocol)
        async throws -> String
    {
        let body = try JSONSerialization.data(withJSONObject: ["name": name, "scopes": scopes, "apps": apps])
        let response = try await client.admin(.post, "/admin/v1/keys", body: String(decoding: body, as: UTF8.self))
        #expect(response.status == .created, "\(String(buffer: response.body))")
        return try response.decode(Made.self).secret
    }
}
