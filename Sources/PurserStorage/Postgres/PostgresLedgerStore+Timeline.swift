import Foundation
import PostgresNIO
import PurserCore

extension PostgresLedgerStore {
    public func recordQueueSample(_ sample: QueueSample, forgettingBefore cutoff: Date) async throws {
        try await inTransaction { connection in
            for statement in LedgerTimelineSQL.record(sample, before: cutoff.millis) {
                _ = try await self.rows(connection, PostgresQuery(unsafeSQL: statement))
            }
        }
    }

    public func timeline(since: Date) async throws -> LedgerTimeline {
        let (hourly, samples) = try await withConnection { connection in
            (
                try await self.rows(
                    connection, PostgresQuery(unsafeSQL: LedgerTimelineSQL.hourly(since: since.millis))),
                try await self.rows(
                    connection, PostgresQuery(unsafeSQL: LedgerTimelineSQL.samples(since: since.millis)))
            )
        }
        return LedgerTimelineSQL.timeline(
            hourly: try hourly.map {
                let row = $0.makeRandomAccess()
                return (hour: try row.int64("hour"), event: try row.text("event"), count: Int(try row.int64("n")))
            },
            samples: try samples.map {
                let row = $0.makeRandomAccess()
                return QueueSample(
                    at: Date(millis: try row.int64("at")), webhookBacklog: Int(try row.int64("webhook_backlog")),
                    unbound: Int(try row.int64("unbound")))
            })
    }
}
