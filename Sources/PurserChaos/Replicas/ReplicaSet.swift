import AsyncHTTPClient
import Foundation
import PurserCore
import Synchronization

/// The `purser serve` replicas of a chaos run behind their front, and the record of every kill: one replica at a
/// time is marked down, killed with SIGKILL, started again on the same database and marked up once it answers.
final class ReplicaSet: Sendable {
    let processes: [ServerProcess]
    let front: ReplicaFront
    private let client: HTTPClient
    private let killing = AsyncSerialLock()
    private let began = ContinuousClock.now
    private let killed = Mutex<[ChaosKill]>([])

    init(processes: [ServerProcess], front: ReplicaFront, client: HTTPClient) {
        self.processes = processes
        self.front = front
        self.client = client
    }

    /// Starts every replica at once (they race for the migration lock, as replicas deployed together do).
    func startAll() async throws {
        try await withThrowingTaskGroup(of: (Int, URL).self) { group in
            for (index, process) in processes.enumerated() {
                group.addTask { (index, try await process.start(client: self.client)) }
            }
            for try await (index, url) in group { front.markUp(index, at: url) }
        }
    }

    /// Kills replica `index` with SIGKILL while it serves, starts it again, and records the kill.
    func kill(_ index: Int) async throws {
        try await killing.withLock {
            let process = self.processes[index]
            let pid = process.pid ?? 0
            let at = ContinuousClock.now
            self.front.markDown(index)
            await process.kill()
            // A replica that exits while it starts (it stops when its database cannot be reached at start, as in a
            // database failover's gap) is started again, as a supervisor would, every second for up to 90 s after
            // the kill: a Patroni failover on a loaded machine outlasted three quick attempts.
            var failedStarts = 0
            var started: URL?
            while started == nil {
                do {
                    started = try await process.start(client: self.client)
                } catch {
                    failedStarts += 1
                    guard ContinuousClock.now - at < .seconds(90) else { throw error }
                    try await Task.sleep(for: .seconds(1))
                }
            }
            guard let url = started else { return }
            self.front.markUp(index, at: url)
            let kill = ChaosKill(
                replica: process.name, pid: pid, atSeconds: (at - self.began).seconds,
                downForSeconds: (ContinuousClock.now - at).seconds, failedStarts: failedStarts)
            self.killed.withLock { $0.append(kill) }
        }
    }

    /// Every kill so far, in order.
    var kills: [ChaosKill] { killed.withLock { $0 } }

    /// Each replica's memory now, in replica order (zeros for one that is not running).
    var memory: [ProcessMemory] {
        processes.map { process in
            process.pid.map(ProcessMemory.of(pid:)) ?? ProcessMemory(resident: 0, peakResident: 0)
        }
    }

    /// Stops every replica gracefully.
    func stopAll() async {
        for process in processes { await process.stop() }
    }
}

/// One replica killed during a run: which, its process id, when (seconds into the run) and how long it was down.
public struct ChaosKill: Codable, Sendable, Hashable, CustomStringConvertible {
    public var replica: String
    public var pid: Int32
    public var atSeconds: Double
    public var downForSeconds: Double
    /// Starts that exited before the replica answered (it was started again).
    public var failedStarts = 0

    public var description: String {
        String(format: "%@ (pid %d) killed at %.1f s, back after %.2f s", replica, pid, atSeconds, downForSeconds)
            + (failedStarts > 0 ? " (\(failedStarts) start\(failedStarts == 1 ? "" : "s") exited first)" : "")
    }
}

extension Duration {
    /// The duration in seconds, as a `Double`.
    var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
