import AppStoreVerification
import Foundation
import Synchronization

/// The progress line while a run goes: purchases done per strategy, the rate, and the phase. Written to standard
/// error (every second on a terminal, every ten seconds otherwise), so `--json` output stays clean.
public final class ChaosProgress: Sendable {
    private struct State {
        var label = ""
        var done = 0
        var total = 0
        var started = Date()
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

    func begin(_ label: String, total: Int) {
        state.withLock { $0 = State(label: label, done: 0, total: total, started: Date()) }
        report()
    }

    func tick() { state.withLock { $0.done += 1 } }

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
