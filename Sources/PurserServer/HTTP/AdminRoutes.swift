import Hummingbird
import PurserCore

/// The support console's API under `/admin/v1`, behind its own bearer token:
/// - `GET /orders/{appleOrderId}` → every transaction of the Apple order id, with ledger state and owner
/// - `GET /transactions/{id}` → one transaction
/// - `POST /grants` `{transactionId, userId, reason}` → credit an unbound transaction once, audited
struct AdminRoutes {
    let support: SupportService
    let token: String

    struct GrantRequest: Decodable {
        var transactionId: String
        var userId: String
        var reason: String
    }

    func add(to router: Router<PurserRequestContext>) {
        let admin = router.group("admin/v1").add(middleware: AdminAuthenticationMiddleware(token: token))
        admin.get("orders/{appleOrderId}") { _, context in
            try JSONResponse.make([
                "transactions": try await support.lookUp(appleOrderID: try context.parameters.require("appleOrderId"))
            ])
        }
        admin.get("transactions/{id}") { _, context in
            try JSONResponse.make(try await support.view(transactionID: try context.parameters.require("id")))
        }
        admin.post("grants") { request, context in
            let body = try await request.decodeJSON(GrantRequest.self, context: context)
            let view = try await support.grant(
                transactionID: body.transactionId, to: UserID(body.userId), reason: body.reason,
                operator: try context.requireUser().rawValue)
            return try JSONResponse.make(view)
        }
    }
}
