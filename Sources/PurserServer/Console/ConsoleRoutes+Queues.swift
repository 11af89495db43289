import Foundation
import Hummingbird
import PurserCore
import PurserStorage

extension ConsoleRoutes {
    /// How long before a purchase an order counts as a candidate owner in the unbound queue.
    static let candidateWindow: TimeInterval = 30 * 60

    /// Unbound transactions, oldest first, each with the waiting orders of its product created in the half hour
    /// before Apple charged (who might own it) and a "bind to this user" form per candidate.
    func unbound(_ request: Request, signedIn: SignedIn) async throws -> Response {
        let dates = ISO8601DateFormatter()
        var rows: [[String: Any]] = []
        for id in try await store.unboundTransactionIDs(limit: 50) {
            guard let record = try await store.transaction(id) else { continue }
            let purchase = record.transaction.purchaseDate
            var candidates: [[String: Any]] = []
            for orderID in try await store.waitingOrderIDs(
                productID: record.transaction.productID, createdFrom: purchase - Self.candidateWindow,
                to: purchase + 60, limit: 5)
            {
                guard let order = try await store.order(orderID) else { continue }
                candidates.append([
                    "user": order.userID.rawValue, "orderId": order.id.description,
                    "created": dates.string(from: order.createdAt), "transactionId": id,
                ])
            }
            rows.append([
                "transactionId": id, "productId": record.transaction.productID,
                "purchased": dates.string(from: purchase), "environment": record.transaction.environment.rawValue,
                "candidates": candidates, "hasCandidates": !candidates.isEmpty,
            ])
        }
        return page("unbound", ["rows": rows, "hasRows": !rows.isEmpty])
            .response(language: language(request), signedIn: signedIn, path: "/console/unbound")
    }

    /// Failed and dead-lettered webhook events, each with a replay button.
    func webhookEvents(_ request: Request, signedIn: SignedIn, notice: String? = nil, error: String? = nil)
        async throws -> Response
    {
        let dates = ISO8601DateFormatter()
        var rows: [[String: Any]] = []
        for status in ["dead", "failed"] {
            for delivery in try await webhooks.list(status: status, limit: 100) {
                rows.append([
                    "id": delivery.id, "type": delivery.type, "userId": delivery.userId, "endpoint": delivery.endpoint,
                    "status": delivery.status.rawValue, "attempts": delivery.attempts,
                    "lastResult": delivery.lastResult ?? "—",
                    "lastAttempt": delivery.lastAttemptAt.map(dates.string(from:)) ?? "—",
                ])
            }
        }
        var values: [String: Any] = ["rows": rows, "hasRows": !rows.isEmpty]
        if let notice { values["notice"] = notice }
        if let error { values["error"] = error }
        return page("webhooks", values)
            .response(language: language(request), signedIn: signedIn, path: "/console/webhooks")
    }

    /// Replays one event (audited with the operator), from its first attempt again.
    func replay(_ id: String, request: Request, context: PurserRequestContext, _ signedIn: SignedIn) async throws
        -> Response
    {
        let form = try await Self.form(request, context: context)
        let text = ConsoleText.table(language(request))
        guard signedIn.accepts(form["csrf"]) else {
            var response = try await webhookEvents(request, signedIn: signedIn, error: text["formExpired"])
            response.status = .forbidden
            return response
        }
        do {
            _ = try await webhooks.replay(eventID: id, operator: signedIn.session.operatorName)
        } catch let error as ServiceError {
            var response = try await webhookEvents(request, signedIn: signedIn, error: error.message)
            response.status = error.code.status
            return response
        }
        return try await webhookEvents(request, signedIn: signedIn, notice: text["replayed"])
    }

    /// What waits, at a glance: unbound and waiting counts with the oldest of each, the webhook outbox, and the
    /// pictures of the last 48 hours (`DashboardCharts`).
    func dashboard(_ request: Request, signedIn: SignedIn) async throws -> Response {
        let moment = now()  // one instant for the whole page: today, the 48 hours, the gauge's age
        let health = try await store.health()
        let summary = try await store.webhookSummary()
        let dates = ISO8601DateFormatter()
        func oldest(_ backlog: LedgerHealth.Backlog) -> String { backlog.oldest.map(dates.string(from:)) ?? "—" }
        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = TimeZone(identifier: "UTC")!
        let activity = try await store.activity(since: utc.startOfDay(for: moment))
        let lastRun = try await Reconciler.lastRun(in: store)
        var values: [String: Any] = [
            "today": activity.eventsByKind.sorted { $0.key < $1.key }.map { ["kind": $0.key, "count": $0.value] },
            "lastNotification": activity.lastNotificationReceivedAt.map(dates.string(from:)) ?? "—",
            "intakeLag": activity.lastNotificationReceivedAt.flatMap { received in
                activity.lastNotificationSignedAt.map { String(format: "%.1f s", received.timeIntervalSince($0)) }
            } ?? "—",
            "lastReconciliation": lastRun.map { dates.string(from: $0.finishedAt) } ?? "—",
            "reconciliationFound": lastRun.map { "\($0.summary)" } ?? "—",
            "unbound": health.unbound.count, "unboundOldest": oldest(health.unbound),
            "waiting": health.waitingOrders.count, "waitingOldest": oldest(health.waitingOrders),
            "undelivered": health.undeliveredEvents.count + summary.undispatched,
            "undeliveredOldest": oldest(health.undeliveredEvents), "dead": health.deadEvents,
            "delivered": summary.delivered, "retries": summary.retries,
        ]
        values["hasToday"] = !activity.eventsByKind.isEmpty
        let timeline = try await store.timeline(since: moment.addingTimeInterval(-QueueSamplerService.window))
        let charts = DashboardCharts(text: ConsoleText.table(language(request)), now: moment)
        values["chartHourly"] = charts.hourly(timeline)
        values["chartDecisions"] = charts.decisions(timeline)
        values["chartQueues"] = charts.queues(timeline.samples)
        values["chartUnboundAge"] = charts.unboundAge(oldest: health.unbound.oldest, threshold: unboundAlert)
        return page("dashboard", values)
            .response(language: language(request), signedIn: signedIn, path: "/console/dashboard")
    }
}
