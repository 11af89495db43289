import Foundation
import Hummingbird
import PurserCore

/// The support console's and the game backend's API under `/admin/v1`, behind API keys (`AdminCaller`), each route
/// with its scope:
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
    let keys: APIKeyService
    /// The legacy `admin.token`, a key with every scope, when configured.
    let legacyToken: String?
    /// This deployment's app (its `bundleId`): a key limited to other apps finds nothing here.
    let app: String

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
        let admin = router.group("admin/v1").add(
            middleware: AdminAuthenticationMiddleware(legacyToken: legacyToken, keys: keys))
        on(admin, .get, "orders/{appleOrderId}", .ledgerRead, endpoints: &endpoints) { _, context in
            try JSONResponse.make([
                "transactions": try await support.lookUp(appleOrderID: try context.parameters.require("appleOrderId"))
            ])
        }
        on(admin, .get, "app-transactions/{appTransactionId}", .ledgerRead, endpoints: &endpoints) {
            _, context in
            try JSONResponse.make([
                "transactions": try await support.lookUp(
                    appTransactionID: try context.parameters.require("appTransactionId"))
            ])
        }
        on(admin, .get, "transactions/{id}", .ledgerRead, endpoints: &endpoints) { _, context in
            try JSONResponse.make(try await support.view(transactionID: try context.parameters.require("id")))
        }
        on(admin, .post, "grants", .supportWrite, endpoints: &endpoints) { request, context in
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
        on(admin, .post, "wallets/{userId}/transactions", nil, endpoints: &endpoints) {
            request, context in
            let data = try await request.jsonBody(context: context)
            var body = try Request.decode(WalletService.Body.self, from: data)
            // Making good (a deposit, every amount above zero) is support's too; a spend is the game backend's alone.
            let caller = try Self.caller(context)
            let deposit = !body.amounts.isEmpty && body.amounts.values.allSatisfy { $0 > 0 }
            try caller.authorize(deposit && caller.holds(.supportWrite) ? .supportWrite : .walletWrite, app: app)
            body.metadata = try WalletService.metadata(in: data)
            return try JSONResponse.make(
                try await wallets.apply(body, to: try Self.user(context), cause: try Self.caller(context).walletCause))
        }
        on(admin, .get, "wallets/{userId}", .ledgerRead, endpoints: &endpoints) { _, context in
            try JSONResponse.make(try await wallets.view(of: try Self.user(context)))
        }
        on(admin, .get, "wallets/{userId}/transactions", .ledgerRead, endpoints: &endpoints) {
            request, context in
            let query = request.uri.queryParameters
            return try JSONResponse.make(
                try await wallets.history(
                    of: try Self.user(context), cursor: query.get("cursor"), limit: query.get("limit")))
        }
        addHoldRoutes(to: admin, endpoints: &endpoints)
        addWebhookRoutes(to: admin, endpoints: &endpoints)
        addUserRoutes(to: admin, endpoints: &endpoints)
        addKeyRoutes(to: admin, endpoints: &endpoints)
    }

    /// The `userId` path parameter, percent-decoded (the router hands it over as sent).
    static func user(_ context: PurserRequestContext) throws -> UserID {
        let raw = try context.parameters.require("userId")
        return UserID(raw.removingPercentEncoding ?? raw)
    }
}
