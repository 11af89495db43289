import Foundation

/// One stream per listener of what the coordinator reports: every listener gets every element from the moment it
/// listens, and a listener that stops (a view's `.task` cancelled) takes nothing from the others. What a new listener
/// gets first is the `Replay`: events sent while nobody listened (so a launch's outcome is not lost before the app's
/// first view listens), or the latest value (the wallet). A lock, not `Mutex`, which needs iOS 18.
final class EventBroadcast<Element: Sendable>: @unchecked Sendable {
    /// What a new listener hears before what is sent after it subscribed.
    enum Replay {
        /// Every element sent while nobody listened, once, for the first listener (events).
        case waitingForFirstListener
        /// The last element sent, for every listener, until `forget()` (a value that changes, like the wallet).
        case latest
    }

    private let replay: Replay
    private let lock = NSLock()
    private var listeners: [Int: AsyncStream<Element>.Continuation] = [:]
    private var next = 0
    /// What the next listener hears first.
    private var backlog: [Element] = []
    private var finished = false

    init(replay: Replay = .waitingForFirstListener) {
        self.replay = replay
    }

    /// A new stream: the replay, then every element sent from now on.
    func subscribe() -> AsyncStream<Element> {
        let (stream, continuation) = AsyncStream.makeStream(of: Element.self)
        lock.lock()
        let id = next
        next += 1
        let replayed = backlog
        if replay == .waitingForFirstListener { backlog = [] }
        if finished {
            lock.unlock()
            for element in replayed { continuation.yield(element) }
            continuation.finish()
            return stream
        }
        listeners[id] = continuation
        // Yielded under the lock, so a `send` that comes next cannot overtake the replay.
        for element in replayed { continuation.yield(element) }
        lock.unlock()
        continuation.onTermination = { [weak self] _ in self?.remove(id) }
        return stream
    }

    /// Whether anyone listens now.
    var hasListeners: Bool {
        lock.lock()
        defer { lock.unlock() }
        return !listeners.isEmpty
    }

    /// Sends `element` to every listener, and keeps it as the replay allows.
    func send(_ element: Element) {
        lock.lock()
        defer { lock.unlock() }
        guard !finished else { return }
        switch replay {
        case .latest: backlog = [element]
        case .waitingForFirstListener where listeners.isEmpty: backlog.append(element)
        case .waitingForFirstListener: break
        }
        for listener in listeners.values { listener.yield(element) }
    }

    /// Forgets what a new listener would hear first (the latest value is no longer current).
    func forget() {
        lock.lock()
        backlog = []
        lock.unlock()
    }

    /// Ends every stream, now and for later listeners (which still get the replay first).
    func finish() {
        lock.lock()
        finished = true
        let all = listeners.values
        listeners = [:]
        lock.unlock()
        for listener in all { listener.finish() }
    }

    private func remove(_ id: Int) {
        lock.lock()
        listeners[id] = nil
        lock.unlock()
    }
}
