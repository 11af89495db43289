import Foundation
import Metrics
import PurserStorage

/// The ledger's backlog as gauges, read from the ledger when Prometheus scrapes (so they are as fresh as the scrape
/// and cost nothing between scrapes): unbound transactions, waiting orders and undelivered webhook events, each with
/// the age of its oldest, dead-lettered events, and open wallet holds with the age of the oldest.
struct LedgerGauges: Sendable {
    /// The app whose ledger `store` is: the gauges' `app` label.
    let app: String
    let store: any LedgerStore
    /// Whether webhook endpoints are configured: without any, events wait for one by design and are no backlog.
    let webhooksConfigured: Bool
    let now: @Sendable () -> Date

    func refresh() async throws {
        let health = try await store.health()
        let at = now()
        Gauge(label: "purser.transactions.unbound").record(health.unbound.count)
        Gauge(label: "purser.transactions.unbound.oldest.age.seconds").record(health.unbound.oldestAge(at: at))
        Gauge(label: "purser.orders.waiting").record(health.waitingOrders.count)
        Gauge(label: "purser.orders.waiting.oldest.age.seconds").record(health.waitingOrders.oldestAge(at: at))
        let undispatched = webhooksConfigured ? health.undispatchedEvents : .init(count: 0, oldest: nil)
        let backlog = LedgerHealth.Backlog(
            count: undispatched.count + health.undeliveredEvents.count,
            oldest: [undispatched.oldest, health.undeliveredEvents.oldest].compactMap { $0 }.min())
        Gauge(label: "purser.webhooks.backlog.events").record(backlog.count)
        Gauge(label: "purser.webhooks.backlog.oldest.age.seconds").record(backlog.oldestAge(at: at))
        Gauge(label: "purser.webhooks.dead.events").record(health.deadEvents)
        Gauge(label: "purser.wallet.holds.open").record(health.openHolds.count)
        Gauge(label: "purser.wallet.holds.open.oldest.age.seconds").record(health.openHolds.oldestAge(at: at))
    }
}
