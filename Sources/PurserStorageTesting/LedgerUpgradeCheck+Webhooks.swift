import Foundation
import PurserStorage
import PurserWebhooks

extension LedgerUpgradeCheck {
    /// The outbox after the upgrade: every event not fanned out yet is fanned out to a new endpoint, every row shows up
    /// in the delivery list, every claimable body decodes, and each `event` and `delivery` expectation holds.
    func webhookEvents() async throws -> [String] {
        var problems: [String] = []
        _ = try await store.dispatchWebhookEvents(
            to: [WebhookRoute(endpoint: Self.endpoint)], limit: 10_000, now: now)
        let deliveries = try await store.webhookDeliveries(status: nil, limit: 10_000)
        let events = Set(deliveries.map(\.id))
        if events.count != outboxRows {
            problems.append("\(events.count) webhook events listed, the outbox holds \(outboxRows) rows")
        }
        var endpoints = Set(deliveries.map(\.endpoint))
        endpoints.insert(Self.endpoint)
        var bodies: [String: String] = [:]
        for endpoint in endpoints.sorted() {
            let claims = try await store.claimWebhookDeliveries(
                endpoint: endpoint, ordered: false, holder: "upgrade-check", until: now.addingTimeInterval(60),
                limit: 10_000, now: now)
            for claim in claims { bodies[claim.id] = claim.body }
        }
        var decoded: [String: WebhookEvent] = [:]
        for (id, body) in bodies {
            do {
                decoded[id] = try WebhookEvent.decoder.decode(WebhookEvent.self, from: Data(body.utf8))
            } catch {
                problems.append("the body of \(id) does not decode: \(error) \(body)")
            }
        }
        for expectation in expectations {
            let a = expectation.arguments
            switch expectation.kind {
            case "delivery":
                guard a.count == 3 else {
                    problems.append("\(expectation): cannot read")
                    continue
                }
                let found = deliveries.first { $0.id == a[0] && $0.endpoint == a[1] }
                if found?.status.rawValue != a[2] {
                    problems.append("\(expectation): is \(found?.status.rawValue ?? "missing")")
                }
            case "event":
                if let problem = Self.check(event: a, in: decoded) { problems.append("\(expectation): \(problem)") }
            default:
                continue
            }
        }
        return problems
    }

    /// `WEBHOOK_ID TYPE USER SEQUENCE CUR=AMOUNT,… [CAUSE]` against the decoded bodies.
    static func check(event a: [String], in decoded: [String: WebhookEvent]) -> String? {
        guard a.count >= 5, let sequence = Int64(a[3]) else { return "cannot read" }
        guard let event = decoded[a[0]] else { return "no claimable body (\(decoded.keys.sorted()))" }
        let cause = a.count > 5 ? a.dropFirst(5).joined(separator: " ") : nil
        let seen: (user: String, sequence: Int64, amounts: [String: Int64], cause: String?)
        if let transaction = event.transaction {
            seen = (transaction.userId, transaction.sequence, transaction.grants, transaction.cause?.rawValue)
        } else if let change = event.walletChange {
            seen = (change.userId, change.sequence, change.amounts, change.cause)
        } else {
            return "neither a transaction nor a wallet change"
        }
        let expected = (a[2], sequence, amounts(a[4]), cause)
        guard event.type.rawValue == a[1], seen.user == expected.0, seen.sequence == expected.1,
            seen.amounts == expected.2, cause == nil || seen.cause == cause
        else { return "reads \(event.type) \(seen)" }
        return nil
    }
}
