import ServiceLifecycle

extension LedgerStore {
    /// Runs `body` with the store usable outside a service group, then closes the store: a store that is itself a
    /// `Service` (PostgreSQL's connection pool) runs meanwhile. For the commands and harnesses that use a ledger
    /// without running a server; a server puts the store in its `ServiceGroup` instead.
    public func whileRunning<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        guard let service = self as? any Service else {
            do {
                let result = try await body()
                try await close()
                return result
            } catch {
                try? await close()
                throw error
            }
        }
        return try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask {
                try await service.run()
                return nil
            }
            let outcome: Result<T, any Error>
            do {
                outcome = .success(try await body())
            } catch {
                outcome = .failure(error)
            }
            try? await close()
            group.cancelAll()
            while (try? await group.next()) != nil {}
            return try outcome.get()
        }
    }
}
