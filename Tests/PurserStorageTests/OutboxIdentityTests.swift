import Foundation
import PurserStorage
import Testing

/// Webhook ids: `evt_`, the event's time in milliseconds (12 hex digits), 80 random bits (20). The time first makes
/// the outbox's unique index on them grow at one end; the random bits keep two events of one millisecond apart.
@Suite struct OutboxIdentityTests {
    @Test func anIdStartsWithItsEventsMillisecondAndSortsByIt() throws {
        let identity = OutboxIdentity()
        let at = Date(timeIntervalSince1970: 1_796_600_004.123_9)
        let id = identity.nextWebhookID(at: at)
        #expect(id.wholeMatch(of: /evt_[0-9a-f]{32}/) != nil, "\(id)")
        #expect(UInt64(id.dropFirst(4).prefix(12), radix: 16) == 1_796_600_004_124)
        let later = identity.nextWebhookID(at: at + 0.001)
        #expect(id < later, "\(id) sorts after \(later)")
    }

    @Test func idsOfOneMillisecondDifferAndASeedReplaysThem() {
        let at = Date(timeIntervalSince1970: 1_796_600_000)
        let ids = (0..<1000).map { _ in OutboxIdentity().nextWebhookID(at: at) }
        #expect(Set(ids).count == 1000)
        #expect(Set(ids.map { $0.prefix(16) }).count == 1, "one millisecond: \(ids.prefix(2))")
        let (first, second) = (OutboxIdentity(seed: 7), OutboxIdentity(seed: 7))
        let replayed = (0..<3).map { _ in first.nextWebhookID(at: at) }
        #expect(replayed == (0..<3).map { _ in second.nextWebhookID(at: at) }, "a chaos seed replays its ids")
        #expect(Set(replayed).count == 3)
    }

    /// The chaos sabotage of ids numbered per ledger: two identities with one seed that do not stamp the time draw
    /// the same ids in the same order, whenever their events happen (stamping the time, they met only when two
    /// events shared a millisecond, so the run that must catch the sabotage passed by chance).
    @Test func withoutTheTimeOneSeedDrawsTheSameIdsAtAnyTime() {
        let (first, second) = (OutboxIdentity(seed: 9, stampsTime: false), OutboxIdentity(seed: 9, stampsTime: false))
        let early = Date(timeIntervalSince1970: 1_796_600_000)
        let ids = (0..<3).map { first.nextWebhookID(at: early.addingTimeInterval(Double($0))) }
        #expect(ids == (0..<3).map { second.nextWebhookID(at: early.addingTimeInterval(Double($0) + 0.5)) })
        #expect(Set(ids).count == 3 && ids.allSatisfy { $0.count == 36 && $0.hasPrefix("evt_") })
        let stamped = (OutboxIdentity(seed: 9), OutboxIdentity(seed: 9))
        #expect(stamped.0.nextWebhookID(at: early) != stamped.1.nextWebhookID(at: early.addingTimeInterval(0.5)))
    }
}
