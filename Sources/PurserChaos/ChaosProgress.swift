import AppStoreVerification
import Foundation
import PurserStorage
import Synchronization

/// The progress line while a run goes: purchases done per strategy, the rate, and the phase. Written to standard
/// error (every second on a terminal, every ten seconds otherwise), so `--json` output stays clean.
public final class ChaosProgress: Sendable {
    private struct State {
        var label = ""
        var done = 0
        var total = 0
        var started = Date()
        var tenths: [ChaosTenth] = []
        var replicaMemory: @Sendable () -> [Int] = { [] }
    }

    private let state = Mutex(State())
    private let sink: (@Sendable (String) -> Void)?

    /// - Parameter sink: where lines go; `nil` prints nothing.
    public init(sink: (@Sendable (String) -> Void)?) {
        self.sink = sink
    }

    /// Progress to standard error.
    public static let standardError = ChaosProgress { line in
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    /// Starts counting a strategy's `total` purchases; `replicaMemory` reads each `serve` replica's resident bytes
    /// at the end of every tenth.
    func begin(_ label: String, total: Int, replicaMemory: @escaping @Sendable () -> [Int] = { [] }) {
        state.withLock {
            $0 = State(label: label, done: 0, total: total, started: Date(), replicaMemory: replicaMemory)
        }
        report()
    }

    /// One purchase done; the last of a tenth records the tenth (`tenths`).
    func tick() {
        let ended = state.withLock { state -> (Int, ChaosTenth, @Sendable () -> [Int])? in
            state.done += 1
            let tenth = state.tenths.count + 1
            guard tenth <= 10, state.done * 10 >= state.total * tenth else { return nil }
            let now = Date().timeIntervalSince(state.started)
            let purchases = state.total * tenth / 10 - state.total * (tenth - 1) / 10
            let previous = state.tenths.last?.endedAtSeconds ?? 0
            let record = ChaosTenth(
                purchasesPerSecond: Double(purchases) / max(now - previous, 0.001), endedAtSeconds: now,
                harnessResident: 0, replicasResident: [])
            state.tenths.append(record)
            return (tenth, record, state.replicaMemory)
        }
        guard let (tenth, first, replicaMemory) = ended else { return }
        var record = first
        // Memory is read outside the lock: /proc is a file read per process.
        record.replicasResident = replicaMemory()
        record.harnessResident = ProcessMemory.current.resident
        let sqlite = SQLiteMemory.inUse
        state.withLock { state in
            if state.tenths.count >= tenth { state.tenths[tenth - 1] = record }
        }
        sink?(
            "chaos: tenth \(tenth)/10 of the purchases done, "
                + String(format: "%.0f/s in that tenth (at %.0f s)", record.purchasesPerSecond, record.endedAtSeconds)
                + ", harness \(ProcessMemory.text(record.harnessResident)) resident"
                + (sqlite > 0 ? " (SQLite \(ProcessMemory.text(sqlite)) of it)" : "")
                + (record.replicasResident.isEmpty
                    ? "" : ", replicas " + record.replicasResident.map(ProcessMemory.text).joined(separator: " ")))
    }

    /// The tenths of the current strategy's purchases done so far.
    var tenths: [ChaosTenth] { state.withLock { $0.tenths } }

    /// A phase's line, with the seconds since the strategy began (so the heal phase's steps can be timed).
    func note(_ line: String) {
        let elapsed = state.withLock { Date().timeIntervalSince($0.started) }
        sink?("chaos: \(line) (at \(String(format: "%.1f", elapsed)) s)")
    }

    func report() {
        let line = state.withLock { state -> String in
            let elapsed = max(Date().timeIntervalSince(state.started), 0.001)
            let rate = Double(state.done) / elapsed
            return "chaos: \(state.label) \(state.done)/\(state.total) purchases, \(String(format: "%.0f", rate))/s, "
                + "\(String(format: "%.0f", elapsed)) s"
        }
        sink?(line)
    }

    /// Reports every `interval` until the task is cancelled.
    func run(every interval: Duration) async {
        while !Task.isCancelled {
            try? await Task.sleep(for: interval)
            if Task.isCancelled { return }
            report()
        }
    }

    static var interval: Duration { isatty(STDERR_FILENO) != 0 ? .seconds(1) : .seconds(10) }
}
