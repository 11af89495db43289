import Foundation
import Synchronization

/// Hands out the work items of one bench phase (`claim()`, so fast workers take more) and prints a progress line on
/// stderr at most every `interval` while the phase runs: short phases stay silent, long ones (a preload of a million
/// settlements, the submissions of a big run) show that they move and how fast.
final class BenchProgress: Sendable {
    let label: String
    let total: Int
    private let claimed = Atomic<Int>(0)
    private let completed = Atomic<Int>(0)
    private let start = ContinuousClock.now
    private let lastLine: Mutex<ContinuousClock.Instant>
    private let interval: Duration

    init(_ label: String, total: Int, interval: Duration = .seconds(5)) {
        self.label = label
        self.total = total
        self.interval = interval
        lastLine = Mutex(start)
    }

    /// The next item to do, or `nil` when every item is taken.
    func claim() -> Int? {
        let index = claimed.wrappingAdd(1, ordering: .relaxed).oldValue
        return index < total ? index : nil
    }

    /// Counts one item done; prints a line when `interval` has passed since the last one.
    func complete() {
        let done = completed.wrappingAdd(1, ordering: .relaxed).newValue
        guard done % 256 == 0 else { return }
        let now = ContinuousClock.now
        let due = lastLine.withLock { last in
            guard now - last >= interval else { return false }
            last = now
            return true
        }
        guard due else { return }
        let seconds = (now - start).microseconds / 1_000_000
        let line =
            "  \(label): "
            + String(
                format: "%d/%d (%.0f%%), %.0f/s\n", done, total, 100 * Double(done) / Double(total),
                Double(done) / seconds)
        FileHandle.standardError.write(Data(line.utf8))
    }

    /// Seconds since the phase began.
    var elapsedSeconds: Double { (ContinuousClock.now - start).microseconds / 1_000_000 }
}
