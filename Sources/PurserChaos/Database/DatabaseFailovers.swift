import Foundation
import Purser
import PurserCore
import Synchronization

/// The `database-failover` family of a run: the PostgreSQL the replicas use, and the record of every failover.
/// One at a time: the primary is taken away (`FailoverDatabase.failOver`: SIGKILL and the harness's own promotion,
/// or under Patroni a SIGKILL or a switchover that Patroni carries out), and the harness writes through the front
/// (a new order, as an app would) until one succeeds: that is the gap. Every answer it meets in the gap is counted;
/// the only right one is 503 `storage_unavailable` (a 500 would tell a client something broke that a retry cannot
/// fix). Then the database recovers a synchronous standby in the background (the purchase that met the failover goes
/// on), and the next failover waits for it, so it loses nothing either.
final class DatabaseFailovers: Sendable {
    let database: any FailoverDatabase
    private let failingOver = AsyncSerialLock()
    private let began = ContinuousClock.now
    private let done = Mutex<[ChaosFailover]>([])
    /// The recovery after the last failover.
    private let rebuilding = Mutex<Task<Void, any Error>?>(nil)

    init(database: any FailoverDatabase) {
        self.database = database
    }

    /// Takes the primary away, waits for the first write through `writer`, and starts the recovery.
    /// - Throws: when the last recovery failed, the failover itself fails or no write succeeds within two minutes.
    func failOver(writer: PurserAPIClient) async throws {
        try await failingOver.withLock {
            try await self.rebuilding.withLock { $0 }?.value
            let clock = ContinuousClock()
            let at = clock.now
            let step = try await self.database.failOver(number: self.done.withLock { $0.count })
            var answers: [String: Int] = [:]
            let session = PurserSession(userID: "chaos-failover-writer", authorization: .development)
            while true {
                do throws(PurserAPIError) {
                    _ = try await writer.createOrder(productID: "gold60", quantity: 1, as: session)
                    break
                } catch {
                    answers[error.status.map { "\($0) \(error.code)" } ?? error.code, default: 0] += 1
                    guard clock.now - at < .seconds(120) else {
                        throw ChaosError(.setupFailed, "no write succeeded within 120 s of the database failover")
                    }
                    try await Task.sleep(for: .milliseconds(20))
                }
            }
            let answered = clock.now
            let failover = ChaosFailover(
                killedPort: step.killedPort, atSeconds: (at - self.began).seconds,
                promotedAfterSeconds: step.promotedAfterSeconds, gapSeconds: (answered - at).seconds,
                answersInGap: answers, how: step.how)
            let index = self.done.withLock { done in
                done.append(failover)
                return done.count - 1
            }
            let task = Task {
                try await self.database.recover()
                self.done.withLock { $0[index].standbyRebuiltAfterSeconds = (clock.now - answered).seconds }
            }
            self.rebuilding.withLock { $0 = task }
        }
    }

    /// Waits for the recovery under way, if any (before the database stops).
    func settle() async {
        _ = try? await rebuilding.withLock { $0 }?.value
    }

    /// Every failover so far, in order.
    var failovers: [ChaosFailover] { done.withLock { $0 } }
}

/// One database failover of a run: the old primary's port, when (seconds into the run), how, how long the promotion
/// took (nil where Patroni promoted by itself), the gap (from the failover to the first write that succeeded), the
/// answers the harness's writes met in the gap, and how long until a synchronous standby was back.
public struct ChaosFailover: Codable, Sendable, Hashable, CustomStringConvertible {
    public var killedPort: Int
    public var atSeconds: Double
    public var promotedAfterSeconds: Double?
    public var gapSeconds: Double
    /// `503 storage_unavailable` (the right answer), or anything else met, with how many times.
    public var answersInGap: [String: Int]
    /// How long after the gap the new standby was synchronous; nil when the run ended first.
    public var standbyRebuiltAfterSeconds: Double?
    /// What was done (nil in older reports: the harness's SIGKILL and promotion).
    public var how: String? = nil

    /// Answers in the gap that were not 503 `storage_unavailable` nor a refused connection: a 500 is a bug.
    public var wrongAnswers: Int {
        answersInGap.filter { $0.key.hasPrefix("500") }.values.reduce(0, +)
    }

    public var description: String {
        let answers = answersInGap.sorted { $0.key < $1.key }.map { "\($0.value) × \($0.key)" }
        let rebuilt = standbyRebuiltAfterSeconds.map { String(format: "%.1f s later", $0) } ?? "not before the end"
        let promoted = promotedAfterSeconds.map { String(format: "promoted after %.2f s", $0) } ?? "promoted by Patroni"
        return String(
            format: "primary on port %d at %.1f s (%@): %@, writes succeed again after %.2f s (gap), synchronous "
                + "standby back %@; answers in the gap: %@",
            killedPort, atSeconds, how ?? "SIGKILLed, standby promoted by the harness", promoted, gapSeconds, rebuilt,
            answers.isEmpty ? "none" : answers.joined(separator: ", "))
    }
}
