import Synchronization

/// Runs an operation in a task of its own and answers its caller when it finishes or when `deadline` passes,
/// whichever comes first. Unlike a task group, the caller does not wait for an operation stuck past its deadline
/// (it is cancelled and left to end by itself): a database call that never returns cannot hold a request for ever.
final class OperationDeadline<T: Sendable>: Sendable {
    private let state = Mutex<(continuation: CheckedContinuation<T, any Error>?, work: Task<Void, Never>?)>((nil, nil))

    /// With `abandoned`, also answers `storage_unavailable` as soon as it returns true (checked every 50 ms): an
    /// operation on a database server the store has left in a failover is not waited for.
    static func run(
        _ deadline: Duration, abandoned: (@Sendable () -> Bool)? = nil,
        _ operation: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        let race = OperationDeadline()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                race.state.withLock { $0.continuation = continuation }
                let timer = Task {
                    var error = StorageError(.unavailable, "the database did not answer within \(deadline)")
                    if let abandoned {
                        let end = ContinuousClock.now + deadline
                        while ContinuousClock.now < end, !Task.isCancelled {
                            try? await Task.sleep(for: .milliseconds(50))
                            if abandoned() {
                                error = StorageError(.unavailable, "the database server was left in a failover")
                                break
                            }
                        }
                    } else {
                        try? await Task.sleep(for: deadline)
                    }
                    guard !Task.isCancelled else { return }
                    if race.finish(.failure(error)) { race.state.withLock { $0.work }?.cancel() }
                }
                let work = Task {
                    do {
                        _ = race.finish(.success(try await operation()))
                    } catch {
                        _ = race.finish(.failure(error))
                    }
                    timer.cancel()
                }
                race.state.withLock { $0.work = work }
            }
        } onCancel: {
            race.state.withLock { $0.work }?.cancel()
        }
    }

    /// Answers the caller once; false when it was answered already.
    private func finish(_ result: Result<T, any Error>) -> Bool {
        guard
            let continuation = state.withLock({ state -> CheckedContinuation<T, any Error>? in
                defer { state.continuation = nil }
                return state.continuation
            })
        else { return false }
        continuation.resume(with: result)
        return true
    }
}
