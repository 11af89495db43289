import Foundation
import PurserCore

/// What the console's dashboard draws: per hour the credits and revokes audited, the decisions' mix, and the queues'
/// sizes as the sampler recorded them (`LedgerStore.timeline(since:)`).
public struct LedgerTimeline: Hashable, Sendable {
    /// One hour (UTC) with activity: its start, and the credits and revokes audited in it.
    public struct Hour: Hashable, Sendable {
        public var start: Date
        public var credits: Int
        public var revokes: Int

        public init(start: Date, credits: Int, revokes: Int) {
            self.start = start
            self.credits = credits
            self.revokes = revokes
        }
    }

    /// Hours with activity, oldest first (an hour with none is left out).
    public var hours: [Hour]
    /// The transactions' audited decisions in the window, by event (`credited`, `rejected`, `recorded_unbound`, …).
    public var decisions: [String: Int]
    /// The queues' samples in the window, oldest first.
    public var samples: [QueueSample]

    public init(hours: [Hour], decisions: [String: Int], samples: [QueueSample]) {
        self.hours = hours
        self.decisions = decisions
        self.samples = samples
    }
}

/// The queues' sizes at one moment, as the dashboard's sampler (a leased job) records them every few minutes.
public struct QueueSample: Hashable, Sendable {
    public var at: Date
    /// Webhook events not yet delivered: waiting to be dispatched, or dispatched and not delivered (dead ones aside).
    public var webhookBacklog: Int
    /// Paid transactions no account owns yet (support's queue).
    public var unbound: Int

    public init(at: Date, webhookBacklog: Int, unbound: Int) {
        self.at = at
        self.webhookBacklog = webhookBacklog
        self.unbound = unbound
    }
}

/// The timeline's SQL, standard SQL both stores run; every number is an inlined integer.
enum LedgerTimelineSQL {
    /// Migration 13: the sampler's table, and the audit log's time index the hourly counts range over.
    static let migration = [
        """
        CREATE TABLE queue_samples (
            at BIGINT PRIMARY KEY,
            webhook_backlog BIGINT NOT NULL,
            unbound BIGINT NOT NULL
        )
        """,
        "CREATE INDEX audit_log_at ON audit_log (at, subject, event)",
    ]

    /// Audited transaction events per hour since `since` (`hour`: milliseconds / 3,600,000), by event.
    static func hourly(since: Int64) -> String {
        """
        SELECT at / 3600000 AS hour, event, COUNT(*) AS n FROM audit_log
        WHERE at >= \(since) AND subject = 'transaction'
        GROUP BY at / 3600000, event
        """
    }

    static func samples(since: Int64) -> String {
        "SELECT at, webhook_backlog, unbound FROM queue_samples WHERE at >= \(since) ORDER BY at"
    }

    /// Records `sample` (a second one at the same millisecond is dropped) and forgets those before `cutoff`.
    static func record(_ sample: QueueSample, before cutoff: Int64) -> [String] {
        [
            """
            INSERT INTO queue_samples (at, webhook_backlog, unbound)
            VALUES (\(sample.at.millis), \(sample.webhookBacklog), \(sample.unbound)) ON CONFLICT (at) DO NOTHING
            """,
            "DELETE FROM queue_samples WHERE at < \(cutoff)",
        ]
    }

    /// The timeline from the hourly rows (`hour`, `event`, `n`) and the samples.
    static func timeline(hourly: [(hour: Int64, event: String, count: Int)], samples: [QueueSample]) -> LedgerTimeline {
        var hours: [Int64: LedgerTimeline.Hour] = [:]
        var decisions: [String: Int] = [:]
        for row in hourly {
            decisions[row.event, default: 0] += row.count
            guard row.event == "credited" || row.event == "revoked" else { continue }
            var hour = hours[row.hour] ?? .init(start: Date(millis: row.hour * 3_600_000), credits: 0, revokes: 0)
            if row.event == "credited" { hour.credits += row.count } else { hour.revokes += row.count }
            hours[row.hour] = hour
        }
        return LedgerTimeline(
            hours: hours.keys.sorted().compactMap { hours[$0] }, decisions: decisions, samples: samples)
    }
}
