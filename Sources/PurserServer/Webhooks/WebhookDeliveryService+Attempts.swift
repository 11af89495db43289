import Foundation
import Logging
import Metrics
import PurserStorage
import PurserWebhooks
import ServiceLifecycle
import Tracing

extension WebhookDeliveryService {
    /// One signed post and its outcome: delivered on 2xx; otherwise the next attempt on the schedule (no sooner
    /// than a `Retry-After` asks, capped at a day), or dead when the schedule is spent.
    func attempt(_ claim: WebhookDelivery.Claim, to endpoint: WebhookEndpoint, transport: any WebhookTransport)
        async -> WebhookDelivery.Attempt
    {
        let body = Array(claim.body.utf8)
        let parent = await traceContext(of: claim)
        let result = await withSpan(PurserTracing.SpanName.webhookAttempt, context: parent, ofKind: .client) { span in
            span.attributes["purser.webhook.id"] = claim.id
            span.attributes["purser.webhook.type"] = claim.type
            span.attributes["purser.webhook.endpoint"] = endpoint.name
            span.attributes["purser.webhook.attempt"] = claim.attempts + 1
            var headers = WebhookSignature.headers(id: claim.id, body: body, secrets: endpoint.secrets, now: now())
            // The game's backend continues this trace (W3C traceparent); not signed, as Standard Webhooks signs none.
            InstrumentationSystem.instrument.inject(span.context, into: &headers, using: WebhookHeaderInjector())
            let result = await transport.post(body, headers: headers, to: endpoint.url, timeout: timeout)
            if case .answered(let status, _) = result { span.attributes["http.response.status_code"] = status }
            if !result.isSuccess { span.setStatus(.init(code: .error, message: "\(result)")) }
            return result
        }
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

    /// The trace an attempt belongs to: for an event about a transaction, the trace of the request that settled it
    /// (`LedgerStore.recordTrace`), so the game's backend joins the purchase's trace; otherwise a new one. Read only
    /// while tracing; a link that cannot be read starts a new trace.
    private func traceContext(of claim: WebhookDelivery.Claim) async -> ServiceContext {
        guard TraceParent.isTracing,
            let event = try? WebhookEvent.decoder.decode(WebhookEvent.self, from: Data(claim.body.utf8)),
            let transactionID = event.transaction?.transactionId,
            let traceParent = try? await store.trace(ofTransaction: transactionID)
        else { return .topLevel }
        return TraceParent.context(traceParent)
    }
}
