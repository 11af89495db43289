import Foundation

extension LedgerStore {
    /// Claims `endpoint`'s due deliveries without ordering them per user (an endpoint's default, `ordered: false`):
    /// `claimWebhookDeliveries(endpoint:ordered:holder:until:limit:now:)` with `ordered` false.
    public func claimWebhookDeliveries(endpoint: String, holder: String, until: Date, limit: Int, now: Date)
        async throws -> [WebhookDelivery.Claim]
    {
        try await claimWebhookDeliveries(
            endpoint: endpoint, ordered: false, holder: holder, until: until, limit: limit, now: now)
    }
}
