import Foundation
import Purser
import PurserCore
import Synchronization

/// The `database-failover` family of a run: the PostgreSQL pair the replicas use, and the record of every failover.
/// One at a time: the primary is killed with SIGKILL, the standby promoted, and the harness writes through the front
/// (a new order, as an app would) until one succeeds: that is the gap. Every answer it meets in the gap is counted;
/// the only right one is 503 `storage_unavailable` (a 500 would tell a client something broke that a retry cannot
/// fix). Then a new synchronous standby is built in the background (the purchase that met the failover goes on), and
/// the next failover waits until it is synchronous, so it loses nothing either.
final class DatabaseFailovers: Sendable {
    let pair: PostgresPair
    private let failingOver = AsyncSerialLock()
    private let began = ContinuousClock.now
    private let done = Mutex<[ChaosFailover]>([])
    /// The standby being built after the last failover.
    private let rebuilding = Mutex<Task<Void, any Error>?>(nil)

    init(pair: PostgresPair) {
        self.pair = pair
    }

    /// Kills the primary, promotes the standby, waits for the first write through `writer`, and starts building a new
    /// standby.
    /// - Throws: when the last standby could not be built, the standby cannot be promoted or no write succeeds within
    ///   two minutes.
    func failOver(writer: PurserAPIClient) async throws {
        try await failingOver.withLock {
            try await self.rebuilding.withLock { $0 }?.value
            let clock = ContinuousClock()
            let killedPort = self.pair.primaryPort
            let at = clock.now
            self.pair.killPrimary()
            try await self.pair.promoteStandby()
            let promoted = clock.now
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
                killedPort: killedPort, atSeconds: (at - self.began).seconds,
                promotedAfterSeconds: (promoted - at).seconds, gapSeconds: (answered - at).seconds,
                answersInGap: answers)
            let index = self.done.withLock { done in
                done.append(failover)
                return done.count - 1
            }
            let task = Task {
                try await self.pair.rebuildStandby()
                self.done.withLock { $0[index].standbyRebuiltAfterSeconds = (clock.now - answered).seconds }
            }
            self.rebuilding.withLock { $0 = task }
        }
    }

    /// Waits for the standby being built, if any (before the pair stops).
    func settle() async {
        _ = try? await rebuilding.withLock { $0 }?.value
    }

    /// Every failover so far, in order.
    var failovers: [ChaosFailover] { done.withLock { $0 } }
}

/// One database failover of a run: the killed primary's port, when (seconds into the run), how long the promotion
/// took, the gap (from the kill to the first write that succeeded), the answers the harness's writes met in the gap,
/// and how long the new standby took to build.
public struct ChaosFailover: Codable, Sendable, Hashable, CustomStringConvertible {
    public var killedPort: Int
    public var atSeconds: Double
    public var promotedAfterSeconds: Double
    public var gapSeconds: Double
    /// `503 storage_unavailable` (the right answer), or anything else met, with how many times.
    public var answersInGap: [String: Int]
    /// How long after the gap the new standby was synchronous; nil when the run ended first.
    public var standbyRebuiltAfterSeconds: Double?

    /// Answers in the gap that were not 503 `storage_unavailable` nor a refused connection: a 500 is a bug.
    public var wrongAnswers: Int {
        answersInGap.filter { $0.key.hasPrefix("500") }.values.reduce(0, +)
    }

    public var description: String {
        let answers = answersInGap.sorted { $0.key < $1.key }.map { "\($0.value) × \($0.key)" }
        let rebuilt = standbyRebuiltAfterSeconds.map { String(format: "%.1f s later", $0) } ?? "not before the end"
        return String(
            format: "primary on port %d killed at %.1f s: standby promoted after %.2f s, writes succeed again after "
                + "%.2f s (gap), new standby synchronous %@; answers in the gap: %@",
            killedPort, atSeconds, promotedAfterSeconds, gapSeconds, rebuilt,
            answers.isEmpty ? "none" : answers.joined(separator: ", "))
    }
}
