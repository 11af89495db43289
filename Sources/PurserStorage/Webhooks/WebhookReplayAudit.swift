import Foundation
import PurserCore

/// The audit record of an operator's replay of a webhook event: who, which endpoints, and where each delivery
/// stood before.
struct WebhookReplayAudit {
    let event: AuditEvent

    init(webhookID: String, operator name: String, before: [WebhookDelivery], routes: [WebhookRoute], at: Date) {
        let stood = Dictionary(before.map { ($0.endpoint, $0) }, uniquingKeysWith: { first, _ in first })
        let endpoints = routes.map { route in
            guard let earlier = stood[route.endpoint] else { return "\(route.endpoint) (new)" }
            return "\(route.endpoint) (was \(earlier.status.rawValue) after \(earlier.attempts) attempts)"
        }
        event = AuditEvent(
            at: at, subject: .webhook, subjectID: webhookID, event: "replayed", cause: "support by \(name)",
            detail: endpoints.isEmpty ? "no endpoint takes this event" : "to " + endpoints.joined(separator: ", "))
    }
}
