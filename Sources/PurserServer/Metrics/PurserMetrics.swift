import CoreMetrics
import Foundation
import Prometheus

/// Purser's metrics as Prometheus reads them: swift-metrics is bootstrapped with swift-prometheus's factory the first
/// time `registry` is used (by `purser serve` with `metrics.port`), and every label Purser and Hummingbird record is
/// named by the OpenTelemetry → Prometheus conventions: dots become underscores, durations end in `_seconds`,
/// counters in `_total` (`http.server.request.duration` → `http_server_request_duration_seconds`).
public enum PurserMetrics {
    /// The process's one registry. Using it bootstraps the process-wide metrics system, which can happen once per
    /// process: an application that bootstraps its own swift-metrics backend should not set `metrics.port`.
    public static let registry: PrometheusCollectorRegistry = {
        let registry = PrometheusCollectorRegistry()
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.nameAndLabelSanitizer = { name, labels in
            (prometheusName(name), (appLabel(of: name) + labels).map { (prometheusName($0.0), $0.1) })
        }
        // swift-prometheus looks the buckets up by the name after `nameAndLabelSanitizer`.
        factory.durationHistogramBuckets[prometheusName(Name.notificationIntakeLag)] = [
            .seconds(1), .seconds(5), .seconds(15), .seconds(60), .seconds(300), .seconds(900), .seconds(3600),
            .seconds(6 * 3600), .seconds(24 * 3600),
        ]
        MetricsSystem.bootstrap(factory)
        return registry
    }()

    /// The app (its bundle id) whose work the current task does: set for each request by the app it names, for
    /// each app's long-lived workers, and for each app's ledger gauges at a scrape. Every Purser metric carries it as
    /// its `app` label, added where every metric is made (`nameAndLabelSanitizer`, called in the recording task), so
    /// no call site can forget it.
    @TaskLocal public static var app = ""

    /// The `app` label a metric named `name` gets: Purser's own (`purser.…`), not Hummingbird's HTTP series.
    static func appLabel(of name: String) -> [(String, String)] {
        name.hasPrefix("purser.") ? [("app", app)] : []
    }

    /// The labels Purser records, in one place.
    public enum Name {
        public static let decisions = "purser.decisions"
        public static let credits = "purser.credits"
        public static let verificationFailures = "purser.verification.failures"
        public static let ledgerWriteDuration = "purser.ledger.write.duration"
        public static let notificationIntakeLag = "purser.notifications.intake.lag"
        public static let notificationLastReceived = "purser.notifications.last.received.timestamp"
        public static let notificationsIgnored = "purser.notifications.ignored"
        public static let reconciliationRuns = "purser.reconciliation.runs"
        public static let reconciliationFindings = "purser.reconciliation.findings"
        public static let reconciliationLastSuccess = "purser.reconciliation.last.success.timestamp"
        public static let webhookAttempts = "purser.webhooks.attempts"
        public static let walletTransactions = "purser.wallet.transactions"
        public static let retentionPruned = "purser.retention.pruned"
        public static let backups = "purser.backups"
        public static let backupLastSuccess = "purser.backups.last.success.timestamp"
        /// Every HTTP call to Apple (or a simulator's Apple endpoints), by `endpoint` and `outcome`.
        public static let appStoreRequests = "purser.appstore.requests"
    }

    /// Suffixes by the conventions: swift-metrics' labels carry no unit or type, Prometheus names do.
    static let suffixes: [String: String] = [
        "http.server.request.duration": "_seconds",
        Name.ledgerWriteDuration: "_seconds",
        Name.notificationIntakeLag: "_seconds",
        Name.notificationLastReceived: "_seconds",
        Name.reconciliationLastSuccess: "_seconds",
        Name.decisions: "_total",
        Name.credits: "_total",
        Name.verificationFailures: "_total",
        Name.notificationsIgnored: "_total",
        Name.reconciliationRuns: "_total",
        Name.reconciliationFindings: "_total",
        Name.webhookAttempts: "_total",
        Name.walletTransactions: "_total",
        Name.retentionPruned: "_total",
        Name.backups: "_total",
        Name.backupLastSuccess: "_seconds",
        Name.appStoreRequests: "_total",
        "hb.requests": "_total",
        "hb.request.errors": "_total",
    ]

    /// A swift-metrics label (or dimension) as a Prometheus name: `[a-zA-Z_:][a-zA-Z0-9_:]*`, with its suffix.
    static func prometheusName(_ label: String) -> String {
        let name = String(label.map { $0.isLetter || $0.isNumber || $0 == "_" ? $0 : "_" })
        return name + (suffixes[label] ?? "")
    }
}
