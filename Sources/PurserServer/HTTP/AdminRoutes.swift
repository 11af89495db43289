import Foundation
import Hummingbird
import PurserCore

/// The support console's API under `/admin/v1`, behind its own bearer token:
/// - `GET /orders/{appleOrderId}` → every transaction of the Apple order id, with ledger state and owner
/// - `GET /app-transactions/{appTransactionId}` → every ledger transaction of that Apple account in this app
/// - `GET /transactions/{id}` → one transaction
/// - `POST /grants` `{transactionId, userId, reason, orderId?}` → credit an unbound transaction once, audited (and
///   complete the user's waiting `orderId`)
/// - `POST /wallets/{userId}/transactions` `{id, amounts, reason, metadata?}` → a spend or deposit, once by `id`
/// - `GET /wallets/{userId}` → balances, held, available; `GET /wallets/{userId}/transactions` → the history
/// - the webhook routes (`AdminRoutes+Webhooks.swift`), a user's export and erasure (`AdminRoutes+Users.swift`)
struct AdminRoutes {
    let support: SupportService
    let webhooks: WebhookService
    let wallets: WalletService
    let users: UserDataService
    let token: String

    struct GrantRequest: Decodable {
        var transactionId: String
        var userId: String
        var reason: String
        /// The user's waiting order the transaction completes, when support binds it to one.
        var orderId: String?
        /// A refusal to override (`product_type_mismatch`), audited: credits a transaction the ledger refused for it.
        var override: String?
    }

    /// Adds the routes under `/admin/v1` to `router`, each recorded in `endpoints`.
    func add(to router: Router<PurserRequestContext>, endpoints: inout EndpointTable) {
        let admin = router.group("admin/v1").add(middleware: AdminAuthenticationMiddleware(token: token))
        admin.on(.get, "orders/{appleOrderId}", under: "/admin/v1", recordingIn: &endpoints) { _, context in
            try JSONResponse.make([
                "transactions": try await support.lookUp(appleOrderID: try context.parameters.require("appleOrderId"))
            ])
        }
        admin.on(.get, "app-transactions/{appTransactionId}", under: "/admin/v1", recordingIn: &endpoints) {
            _, context in
            try JSONResponse.make([
                "transactions": try await support.lookUp(
                    appTransactionID: try context.parameters.require("appTransactionId"))
            ])
        }
        admin.on(.get, "transactions/{id}", under: "/admin/v1", recordingIn: &endpoints) { _, context in
            try JSONResponse.make(try await support.view(transactionID: try context.parameters.require("id")))
        }
        admin.on(.post, "grants", under: "/admin/v1", recordingIn: &endpoints) { request, context in
            let body = try await request.decodeJSON(GrantRequest.self, context: context)
            let order = try body.orderId.map {
                guard let id = OrderID($0) else { throw ServiceError(.invalidOrderID, "orderId is not a UUID") }
                return id
            }
            let view = try await support.grant(
                transactionID: body.transactionId, to: UserID(body.userId), reason: body.reason,
                operator: try context.requireUser().rawValue, order: order, override: body.override)
            return try JSONResponse.make(view)
        }
        admin.on(.post, "wallets/{userId}/transactions", under: "/admin/v1", recordingIn: &endpoints) {
            request, context in
            let data = try await request.jsonBody(context: context)
            var body = try Request.decode(WalletService.Body.self, from: data)
            body.metadata = try WalletService.metadata(in: data)
            return try JSONResponse.make(try await wallets.apply(body, to: try Self.user(context), cause: "admin"))
        }
        admin.on(.get, "wallets/{userId}", under: "/admin/v1", recordingIn: &endpoints) { _, context in
            try JSONResponse.make(try await wallets.view(of: try Self.user(context)))
        }
        admin.on(.get, "wallets/{userId}/transactions", under: "/admin/v1", recordingIn: &endpoints) {
            request, context in
            let query = request.uri.queryParameters
            return try JSONResponse.make(
                try await wallets.history(
                    of: try Self.user(context), cursor: query.get("cursor"), limit: query.get("limit")))
        }
        addHoldRoutes(to: admin, endpoints: &endpoints)
        addWebhookRoutes(to: admin, endpoints: &endpoints)
        addUserRoutes(to: admin, endpoints: &endpoints)
    }

    /// The `userId` path parameter, percent-decoded (the router hands it over as sent).
    static func user(_ context: PurserRequestContext) throws -> UserID {
        let raw = try context.parameters.require("userId")
        return UserID(raw.removingPercentEncoding ?? raw)
    }
}
