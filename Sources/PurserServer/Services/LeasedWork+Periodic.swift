import ServiceLifecycle

extension LeasedWork {
    /// Runs `work` under this lease every `interval` until the service group shuts down (which cuts the wait
    /// short, and a run cut short by it is not reported as failed): a run this replica got the lease for goes to
    /// `finished`, a failed one to `failed` (and the next tick tries again); a tick whose lease another replica holds
    /// is skipped.
    func repeatEvery<T: Sendable>(
        _ interval: Duration, _ work: @escaping @Sendable () async throws -> T,
        finished: (T) -> Void, failed: (any Error) -> Void
    ) async {
        while !Task.isShuttingDownGracefully, !Task.isCancelled {
            try? await cancelWhenGracefulShutdown { try await Task.sleep(for: interval) }
            guard !Task.isShuttingDownGracefully, !Task.isCancelled else { return }
            do {
                if let result = try await cancelWhenGracefulShutdown({ try await runIfFree(work) }) {
                    finished(result)
                }
            } catch {
                // Cut short by the shutdown: not a failure, and the next start runs it again.
                if Task.isShuttingDownGracefully || Task.isCancelled { return }
                failed(error)
            }
        }
    }
}
