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
    /// - `DELETE /keys/{name}` → `{key}`: revoked, at once on every replica
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
        on(admin, .delete, "keys/{name}", .keysAdmin, ofApp: false, endpoints: &endpoints) { _, context in
            let raw = try context.parameters.require("name")
            let view = try await keys.revoke(
                name: raw.removingPercentEncoding ?? raw, by: try Self.caller(context).actor)
            return try JSONResponse.make(["key": view])
        }
    }
}
