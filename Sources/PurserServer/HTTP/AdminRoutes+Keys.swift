import Foundation
import Hummingbird

extension AdminRoutes {
    /// `POST /keys`'s body.
    struct KeyRequest: Decodable {
        var name: String
        var scopes: [String]
        /// `nil` or absent: every app.
        var apps: [String]?
        var expiresInDays: Int?
    }

    /// Under `/admin/v1`, with `keys:admin`:
    /// - `GET /keys` → `{keys}`: every key the caller may see, revoked and expired ones too, without secrets
    /// - `POST /keys` `{name, scopes, apps?, expiresInDays?}` → 201 `{key, secret}`: the secret, shown this once; a
    ///   key gives no scope or app it does not hold itself
    /// - `GET /keys/{name}` → `{key}`: one key, without its secret
    /// - `DELETE /keys/{name}` → `{key}`: revoked, at once on every replica
    ///
    /// A caller sees, reads and revokes only the keys it could have made (`APIKeyService.mayManage`); any other name
    /// answers 404 `not_found` exactly as a name no key has.
    func addKeyRoutes(to admin: RouterGroup<PurserRequestContext>, endpoints: inout EndpointTable) {
        on(admin, .get, "keys", .keysAdmin, ofApp: false, endpoints: &endpoints) { _, context in
            try JSONResponse.make(["keys": try await keys.list(visibleTo: try Self.caller(context))])
        }
        on(admin, .post, "keys", .keysAdmin, ofApp: false, endpoints: &endpoints) { request, context in
            let body = try await request.decodeJSON(KeyRequest.self, context: context)
            let caller = try Self.caller(context)
            let created = try await keys.create(
                name: body.name, scopes: body.scopes, apps: body.apps, expiresInDays: body.expiresInDays,
                by: caller.actor, caller: caller)
            return try JSONResponse.make(created, status: .created)
        }
        on(admin, .get, "keys/{name}", .keysAdmin, ofApp: false, endpoints: &endpoints) { _, context in
            try JSONResponse.make([
                "key": try await keys.key(named: try Self.keyName(context), caller: Self.caller(context))
            ])
        }
        on(admin, .delete, "keys/{name}", .keysAdmin, ofApp: false, endpoints: &endpoints) { _, context in
            let caller = try Self.caller(context)
            let view = try await keys.revoke(name: try Self.keyName(context), by: caller.actor, caller: caller)
            return try JSONResponse.make(["key": view])
        }
    }

    /// The `name` path parameter, percent-decoded (the router hands it over as sent).
    static func keyName(_ context: PurserRequestContext) throws -> String {
        let raw = try context.parameters.require("name")
        return raw.removingPercentEncoding ?? raw
    }
}
