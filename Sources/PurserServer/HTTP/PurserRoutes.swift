import HTTPTypes
import Hummingbird
import Logging
import PurserCore

/// The client-facing API (see `openapi.yaml`): orders, transaction submission, the product list, the wallet and
/// health.
struct PurserRoutes {
    let orders: OrderService
    let submissions: SubmissionService
    let wallets: WalletService
    let authenticator: any Authenticator
    let notifications: NotificationService
    let readiness: ReadinessProbe

    /// `POST /v1/appstore/notifications` body, as Apple sends it.
    struct NotificationBody: Decodable {
        var signedPayload: String
    }

    /// Adds the routes to `router`, each recorded in `endpoints`.
    func add(to router: Router<PurserRequestContext>, endpoints: inout EndpointTable) {
        router.on(.get, "health", recordingIn: &endpoints) { _, _ in
            try JSONResponse.make(["status": "ok"])
        }
        // A load balancer's probe may use HEAD: the same answer without a body.
        router.on(.head, "health", recordingIn: &endpoints) { _, _ in
            Response(status: .ok, headers: [.contentType: "application/json"])
        }
        // Readiness for load balancers: 503 `draining` once shutting down, 503 `storage_unavailable` without a ledger.
        router.on(.get, "ready", recordingIn: &endpoints) { _, _ in
            try await readiness.check()
            return try JSONResponse.make(["status": "ready"])
        }
        router.on(.head, "ready", recordingIn: &endpoints) { _, _ in
            try await readiness.check()
            return Response(status: .ok, headers: [.contentType: "application/json"])
        }
        // Apple calls this one; the signature is the authentication.
        router.on(.post, "v1/appstore/notifications", recordingIn: &endpoints) { request, context in
            let body = try await request.decodeJSON(
                NotificationBody.self, context: context, limit: context.maxUploadSize)
            return try JSONResponse.make(
                try await notifications.receive(signedPayload: body.signedPayload, logger: context.logger))
        }
        let v1 = router.group("v1")
            .add(middleware: AuthenticationMiddleware(authenticator: authenticator))
        v1.on(.post, "orders", under: "/v1", recordingIn: &endpoints) { request, context in
            let body = try await request.decodeJSON(CreateOrderRequest.self, context: context)
            let order = try await orders.create(body, for: try context.requireUser())
            return try JSONResponse.make(OrderResponse(order), status: .created)
        }
        v1.on(.get, "orders/{id}", under: "/v1", recordingIn: &endpoints) { _, context in
            let order = try await orders.order(try context.parameters.require("id"), for: try context.requireUser())
            return try JSONResponse.make(OrderResponse(order))
        }
        // The app reports that StoreKit cancelled or failed the payment for this order.
        v1.on(.post, "orders/{id}/cancel", under: "/v1", recordingIn: &endpoints) { request, context in
            let body = try await request.decodeJSON(CancelOrderRequest.self, context: context)
            let order = try await orders.cancel(
                try context.parameters.require("id"), reason: body.reason,
                for: try context.requireUser())
            return try JSONResponse.make(OrderResponse(order))
        }
        // The catalog, versioned: `ETag` is the version, and a current `If-None-Match` gets 304 without a body.
        v1.on(.get, "products", under: "/v1", recordingIn: &endpoints) { request, context in
            _ = try context.requireUser()
            let list = orders.productList
            let tag = EntityTag(opaque: list.version)
            if tag.isMatched(by: request) {
                return Response(status: .notModified, headers: [.eTag: tag.fieldValue])
            }
            var response = try JSONResponse.make(list)
            response.headers[.eTag] = tag.fieldValue
            return response
        }
        v1.on(.post, "transactions", under: "/v1", recordingIn: &endpoints) { request, context in
            // A StoreKit 1 receipt holds every transaction of the device: up to the server's largest body.
            let body = try await request.decodeJSON(
                SubmitTransactionRequest.self, context: context, limit: context.maxUploadSize)
            let decision = try await submissions.submit(body, by: try context.requireUser())
            // The one line a decided submission logs (info); its logger adds request_id, app and user_id.
            context.logger.info("transaction decided", metadata: Self.metadata(of: decision))
            return try JSONResponse.make(decision)
        }
        v1.on(.get, "wallet", under: "/v1", recordingIn: &endpoints) { _, context in
            return try JSONResponse.make(try await orders.wallet(of: try context.requireUser()))
        }
        // A game with no backend spends from its own user's wallet (`wallet.clientSpend`; 403 while it is off).
        v1.on(.post, "wallet/spend", under: "/v1", recordingIn: &endpoints) { request, context in
            let user = try context.requireUser()
            try wallets.checkClientSpend()
            let data = try await request.jsonBody(context: context)
            var body = try Request.decode(WalletService.Body.self, from: data)
            body.metadata = try WalletService.metadata(in: data)
            return try JSONResponse.make(try await wallets.spendFromApp(body, by: user))
        }
    }

    /// A decision's log metadata: `decision`, `transaction_id` (when the answer names one), the reason's code, and
    /// for a receipt how many transactions it held.
    static func metadata(of decision: DecisionResponse) -> Logger.Metadata {
        var metadata: Logger.Metadata = ["decision": .string(decision.decision)]
        if let id = decision.transactionId { metadata["transaction_id"] = .string(id) }
        if let reason = decision.reason { metadata["reason"] = .string(reason.code) }
        if let transactions = decision.transactions { metadata["transactions"] = "\(transactions.count)" }
        return metadata
    }
}
