import Hummingbird
import PurserCore
import PurserStorage

extension AdminRoutes {
    /// What a replay answers: the event and its deliveries afterwards.
    struct ReplayResponse: Encodable {
        var id: String
        var deliveries: [WebhookDelivery]
    }

    /// Under `/admin/v1`:
    /// - `GET /webhooks/events?status=pending|failed|dead|delivered&limit=N` → `{events}`: deliveries, newest first
    /// - `POST /webhooks/events/{id}/replay` → `{id, deliveries}`: sent again from the first attempt, audited
    /// - `POST /webhooks/endpoints/test` → `{results}`: a signed `webhook.test` event to each endpoint
    func addWebhookRoutes(to admin: RouterGroup<PurserRequestContext>, endpoints: inout EndpointTable) {
        on(admin, .get, "webhooks/events", .ledgerRead, endpoints: &endpoints) { request, _ in
            let query = request.uri.queryParameters
            var limit: Int?
            if let text = query.get("limit") {
                guard let number = Int(text) else {
                    throw ServiceError(.invalidLimit, "limit must be 1 to \(WebhookService.maxLimit)")
                }
                limit = number
            }
            return try JSONResponse.make(["events": try await webhooks.list(status: query.get("status"), limit: limit)])
        }
        on(admin, .post, "webhooks/events/{id}/replay", .webhooksWrite, endpoints: &endpoints) { _, context in
            let id = try context.parameters.require("id")
            let deliveries = try await webhooks.replay(eventID: id, operator: try context.requireUser().rawValue)
            return try JSONResponse.make(ReplayResponse(id: id, deliveries: deliveries))
        }
        on(admin, .post, "webhooks/endpoints/test", .webhooksWrite, endpoints: &endpoints) { _, _ in
            try JSONResponse.make(["results": try await webhooks.test()])
        }
    }
}
