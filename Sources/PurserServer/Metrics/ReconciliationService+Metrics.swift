import Foundation
import Metrics

extension ReconciliationService {
    /// A finished run: counted, its findings counted by kind, and the moment of the last success.
    static func record(_ summary: Reconciler.Summary, at now: Date) {
        Counter(label: PurserMetrics.Name.reconciliationRuns, dimensions: [("outcome", "ok")]).increment()
        for (kind, count) in [
            ("credited", summary.credited), ("revoked", summary.revoked), ("unbound", summary.unbound),
            ("notification_replayed", summary.notificationsReplayed),
        ] {
            Counter(label: PurserMetrics.Name.reconciliationFindings, dimensions: [("kind", kind)]).increment(by: count)
        }
        Gauge(label: PurserMetrics.Name.reconciliationLastSuccess).record(now.timeIntervalSince1970)
    }
}
