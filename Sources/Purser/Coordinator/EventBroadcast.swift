import Foundation

/// One stream per listener of the coordinator's events: every listener gets every element from the moment it
/// listens, a listener that stops (a view's `.task` cancelled) takes nothing from the others, and elements sent
/// while nobody listens wait for the first listener (as the single stream did), so a launch's outcome is not lost
/// before the app's first view listens. A lock, not `Mutex`, which needs iOS 18.
final class EventBroadcast<Element: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var listeners: [Int: AsyncStream<Element>.Continuation] = [:]
    private var next = 0
    /// Elements sent while nobody listened, for the first listener.
    private var waiting: [Element] = []
    private var finished = false

    /// A new stream of every element sent from now on (and those that waited for a first listener).
    func subscribe() -> AsyncStream<Element> {
        let (stream, continuation) = AsyncStream.makeStream(of: Element.self)
        lock.lock()
        let id = next
        next += 1
        let backlog = waiting
        waiting = []
        if finished {
            lock.unlock()
            for element in backlog { continuation.yield(element) }
            continuation.finish()
            return stream
        }
        listeners[id] = continuation
        // Yielded under the lock, so a `send` that comes next cannot overtake the backlog.
        for element in backlog { continuation.yield(element) }
        lock.unlock()
        continuation.onTermination = { [weak self] _ in self?.remove(id) }
        return stream
    }

    /// Sends `element` to every listener, or keeps it for the first one.
    func send(_ element: Element) {
        lock.lock()
        defer { lock.unlock() }
        guard !finished else { return }
        if listeners.isEmpty {
            waiting.append(element)
        } else {
            for listener in listeners.values { listener.yield(element) }
        }
    }

    /// Ends every stream, now and for later listeners.
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
