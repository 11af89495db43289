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
        admin.on(.get, "webhooks/events", under: "/admin/v1", recordingIn: &endpoints) { request, _ in
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
        admin.on(.post, "webhooks/events/{id}/replay", under: "/admin/v1", recordingIn: &endpoints) { _, context in
            let id = try context.parameters.require("id")
            let deliveries = try await webhooks.replay(eventID: id, operator: try context.requireUser().rawValue)
            return try JSONResponse.make(ReplayResponse(id: id, deliveries: deliveries))
        }
        admin.on(.post, "webhooks/endpoints/test", under: "/admin/v1", recordingIn: &endpoints) { _, _ in
            try JSONResponse.make(["results": try await webhooks.test()])
        }
    }
}
