import Foundation
import PurserCore
import Synchronization

/// What a ledger stamps on every event it writes to its outbox: a webhook id made when the row is written, and the
/// app the ledger belongs to.
///
/// A webhook id is the game backend's idempotency key, so it must never name two events: not across the apps of a
/// studio (each has its own ledger), nor across a ledger restored from an older backup (whose sequences start again
/// where the backup stopped). An id is `evt_` and 32 hex digits: the event's time in Unix milliseconds (12 digits),
/// then 80 random bits (20 digits). Two ids can only meet within one millisecond and then with odds of one in 2^80,
/// whatever ledger drew them; the outbox's unique index on `webhook_id` is the last word. The time first makes later
/// ids sort later, so that index grows at one end: a commit of many events writes a page or two of it, not one per
/// event (random ids scattered them). A replayed delivery keeps the id its row was given.
public final class OutboxIdentity: Sendable {
    private let app: Mutex<String?>
    private let seeded: Mutex<SeededGenerator>?
    private let stampsTime: Bool

    /// Ids from the system's randomness, or from `seed` (a chaos run's, so that it replays); events name `bundleID`.
    /// `stampsTime` false draws the id's time digits from the generator too, so two identities with one seed draw
    /// the same ids in the same order whenever their events happen: `purser chaos`'s sabotage of ids numbered per
    /// ledger, which its run must catch.
    public init(bundleID: String? = nil, seed: UInt64? = nil, stampsTime: Bool = true) {
        app = Mutex(bundleID)
        seeded = seed.map { Mutex(SeededGenerator(seed: $0)) }
        self.stampsTime = stampsTime
    }

    /// The bundle id every event's body names (`bundleId`); `nil` until the ledger knows its app.
    public var bundleID: String? { app.withLock { $0 } }

    /// Names `bundleID` in the events written from now on, unless the ledger was opened for an app already: the
    /// server does this for the ledger it serves an app from (`PurserAssembly`).
    public func adopt(bundleID: String) {
        app.withLock { if $0 == nil { $0 = bundleID } }
    }

    /// A new webhook id for an event at `date`: `evt_`, the time in Unix milliseconds as 12 lowercase hex digits, and
    /// 80 random bits as 20.
    public func nextWebhookID(at date: Date) -> String {
        let (high, low): (UInt64, UInt64) =
            seeded?.withLock { ($0.next(), $0.next()) }
            ?? (UInt64.random(in: .min ... .max), UInt64.random(in: .min ... .max))
        let millis = stampsTime ? UInt64(clamping: date.millis) : high
        return "evt_" + Self.hex(((millis & 0xFFFF_FFFF_FFFF) << 16) | (high >> 48)) + Self.hex(low)
    }

    private static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
