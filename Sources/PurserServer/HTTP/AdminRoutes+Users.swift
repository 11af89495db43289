import Hummingbird
import PurserCore

extension AdminRoutes {
    /// Under `/admin/v1`:
    /// - `GET /users/{userId}/export` → everything the ledger holds about the user, per table
    /// - `DELETE /users/{userId}` → the user erased: their id a keyed pseudonym everywhere, the money kept, audited,
    ///   a `user.erased` event
    func addUserRoutes(to admin: RouterGroup<PurserRequestContext>, endpoints: inout EndpointTable) {
        on(admin, .get, "users/{userId}/export", .ledgerRead, endpoints: &endpoints) { _, context in
            try JSONResponse.make(try await users.export(try Self.user(context)))
        }
        on(admin, .delete, "users/{userId}", .supportWrite, endpoints: &endpoints) { _, context in
            try JSONResponse.make(
                try await users.erase(
                    try Self.user(context), cause: "support by \(try context.requireUser().rawValue)"))
        }
    }
}
