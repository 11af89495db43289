import Foundation
import Logging
import Metrics
import PurserStorage
import PurserWebhooks

extension WebhookDeliveryService {
    /// Posts every claim to `endpoint`, at most `concurrency` at once, and says what each attempt came to.
    func attempt(_ claims: [WebhookDelivery.Claim], to endpoint: WebhookEndpoint, transport: any WebhookTransport)
        async -> [WebhookDelivery.Attempt]
    {
        await withTaskGroup(of: WebhookDelivery.Attempt.self) { group in
            var pending = claims[...]
            var attempts: [WebhookDelivery.Attempt] = []
            attempts.reserveCapacity(claims.count)
            for _ in 0..<min(settings.concurrency, claims.count) {
                let claim = pending.removeFirst()
                group.addTask { await self.attempt(claim, to: endpoint, transport: transport) }
            }
            while let finished = await group.next() {
                attempts.append(finished)
                if let claim = pending.popFirst() {
                    group.addTask { await self.attempt(claim, to: endpoint, transport: transport) }
                }
            }
            return attempts
        }
    }

    /// One signed post and its outcome: delivered on 2xx; otherwise the next attempt on the schedule (no sooner
    /// than a `Retry-After` asks, capped at a day), or dead when the schedule is spent.
    private func attempt(_ claim: WebhookDelivery.Claim, to endpoint: WebhookEndpoint, transport: any WebhookTransport)
        async -> WebhookDelivery.Attempt
    {
        let body = Array(claim.body.utf8)
        let headers = WebhookSignature.headers(id: claim.id, body: body, secrets: endpoint.secrets, now: now())
        let result = await transport.post(body, headers: headers, to: endpoint.url, timeout: timeout)
        if result.isSuccess {
            Counter(label: PurserMetrics.Name.webhookAttempts, dimensions: [("outcome", "delivered")]).increment()
            return WebhookDelivery.Attempt(deliveryId: claim.deliveryId, outcome: .delivered, result: "\(result)")
        }
        let at = now()
        var retryAt = schedule.nextAttempt(afterFailures: claim.attempts + 1, now: at, jitter: jitter.next())
        if let scheduled = retryAt, case .answered(_, let retryAfter?) = result {
            retryAt = max(scheduled, at.addingTimeInterval(min(max(retryAfter, 0), 86_400)))
        }
        Counter(
            label: PurserMetrics.Name.webhookAttempts, dimensions: [("outcome", retryAt == nil ? "dead" : "failed")]
        )
        .increment()
        if retryAt == nil {
            logger.warning(
                "webhook event dead-lettered after \(claim.attempts + 1) attempts",
                metadata: ["purser.webhook": "\(claim.id)", "purser.endpoint": "\(endpoint.name)"])
        }
        return WebhookDelivery.Attempt(
            deliveryId: claim.deliveryId, outcome: .failed(retryAt: retryAt), result: "\(result)")
    }
}
