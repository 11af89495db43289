/// Lets one async critical section run at a time, in arrival order. Actors alone do not do this: they are
/// re-entrant at every `await`, and a database transaction, or the settling of one purchase, spans many awaits.
public actor AsyncSerialLock {
    private var held = false
    private var waiters = [CheckedContinuation<Void, Never>]()

    public init() {}

    public func withLock<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        await acquire()
        defer { release() }
        return try await body()
    }

    private func acquire() async {
        if !held {
            held = true
            return
        }
        await withCheckedContinuation { waiters.append($0) }
    }

    private func release() {
        if !waiters.isEmpty {
            waiters.removeFirst().resume()
        } else {
            held = false
        }
    }
}
