import Synchronization

/// Whether this replica is draining: told to stop (SIGTERM), it keeps answering every request while `/ready` answers
/// 503 `draining`, so that a load balancer takes it out before its listener closes (`DrainService`). One per studio,
/// shared by its readiness probe, its server (which says when it listens) and its drain.
final class ReplicaDrain: Sendable {
    private struct State {
        var listening = false
        var draining = false
    }

    private let state = Mutex(State())

    /// The server listens: from now on a stop drains.
    func serverListens() {
        state.withLock { $0.listening = true }
    }

    /// Whether `/ready` answers 503 `draining`.
    var isDraining: Bool { state.withLock { $0.draining } }

    /// The drain begins; returns whether the server was listening (a stop before that has nothing to drain).
    func begin() -> Bool {
        state.withLock { state in
            state.draining = true
            return state.listening
        }
    }
}
