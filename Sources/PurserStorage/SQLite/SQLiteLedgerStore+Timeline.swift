import Foundation
import PurserCore

extension SQLiteLedgerStore {
    public func recordQueueSample(_ sample: QueueSample, forgettingBefore cutoff: Date) async throws {
        try await write { database in
            for statement in LedgerTimelineSQL.record(sample, before: cutoff.millis) {
                _ = try database.query(statement)
            }
        }
    }

    public func timeline(since: Date) async throws -> LedgerTimeline {
        let hourly = try await read(LedgerTimelineSQL.hourly(since: since.millis), []).map {
            (hour: Int64(try $0.int("hour")), event: try $0.text("event"), count: try $0.int("n"))
        }
        let samples = try await read(LedgerTimelineSQL.samples(since: since.millis), []).map {
            QueueSample(
                at: Date(millis: try $0.int("at")), webhookBacklog: try $0.int("webhook_backlog"),
                unbound: try $0.int("unbound"))
        }
        return LedgerTimelineSQL.timeline(hourly: hourly, samples: samples)
    }
}
