import Foundation
import Logging
import PostgresNIO
import Synchronization

extension PostgresLedgerStore {
    /// Runs `body` on a pooled connection; once `body` has it, it runs to the end. While the database is unreachable
    /// the pool would hold the request until its circuit breaker trips (a minute later), so the wait ends with
    /// `storage_unavailable` once the pool has handed out no connection at all, to this operation or any other of the
    /// store's, for `connectionWaitTimeout`. A busy pool that keeps serving (requests queued behind a row lock, a
    /// burst larger than the pool) is waited for. Every failure leaves as a `StorageError` (`StorageError(postgres:)`).
    func withConnection<T: Sendable>(
        _ body: @escaping @Sendable (PostgresConnection) async throws -> T
    ) async throws -> T {
        guard servers.choosesServer else {
            return try await OperationDeadline.run(operationDeadline) { try await self.withConnectionWaiting(body) }
        }
        // Several servers: an operation still running on a server the store has left (its query may never be
        // answered once that server died) answers storage_unavailable at once, not after the deadline.
        let used = PostgresServerSwitch.Used()
        let servers = self.servers
        let left: @Sendable () -> Bool = { servers.hasLeft(used) }
        return try await OperationDeadline.run(operationDeadline, abandoned: left) {
            try await self.withConnectionWaiting(body, using: used)
        }
    }

    /// The longest any operation may take, waiting included: three connection waits, at least 5 s (30 s with the
    /// default wait). A query that postgres-nio never answers (seen when the server terminated the session mid-query
    /// under load) ends with `storage_unavailable` instead of holding its caller for ever. Nothing was decided as far
    /// as the caller knows, and the ledger's rules make the retry safe.
    var operationDeadline: Duration { max(connectionWaitTimeout * 3, .seconds(5)) }

    private func withConnectionWaiting<T: Sendable>(
        _ body: @escaping @Sendable (PostgresConnection) async throws -> T, using used: PostgresServerSwitch.Used? = nil
    ) async throws -> T {
        let gate = ConnectionWait()
        let timeout = connectionWaitTimeout
        let waitStart = ContinuousClock.now
        do {
            return try await withThrowingTaskGroup(of: T?.self) { group in
                group.addTask {
                    let (client, generation) = try await self.servers.client()
                    used?.record(generation)
                    return try await client.withConnection { connection in
                        guard gate.start() else { throw ConnectionWait.TimedOut() }
                        self.lastConnectionHandedOut.withLock { $0 = .now }
                        return try await body(connection)
                    }
                }
                group.addTask {
                    var deadline = waitStart + timeout
                    while true {
                        try await Task.sleep(until: deadline)
                        let progress = max(waitStart, self.lastConnectionHandedOut.withLock { $0 })
                        guard progress + timeout <= .now else {
                            deadline = progress + timeout  // the pool serves others: keep waiting
                            continue
                        }
                        guard gate.expire() else { return nil }  // the body has its connection: wait for it
                        throw ConnectionWait.TimedOut()
                    }
                }
                while let result = try await group.next() {
                    if let value = result {
                        group.cancelAll()
                        return value
                    }
                }
                throw StorageError(.unavailable, "the database operation ended without a result")
            }
        } catch is ConnectionWait.TimedOut {
            servers.operationFailed()
            throw StorageError(.unavailable, "no database connection for \(timeout)")
        } catch {
            let failure = StorageError(postgres: error)
            if failure.code == .unavailable { servers.operationFailed() }
            throw failure
        }
    }

    /// Runs `body` between `BEGIN` and `COMMIT` on one pooled connection; rolls back when anything throws.
    func inTransaction<T: Sendable>(
        _ body: @escaping @Sendable (PostgresConnection) async throws -> T
    ) async throws -> T {
        try await withConnection { connection in
            try await self.execute(connection, "BEGIN")
            do {
                let result = try await body(connection)
                try await self.execute(connection, "COMMIT")
                self.tally.committed()
                return result
            } catch {
                if connection.isClosed || PostgresSQLState.sessionLost(error) {
                    // No ROLLBACK on a lost session: postgres-nio may never answer a query written while the
                    // connection closes. Closing it (again) keeps it out of the pool; the server rolls back.
                    try? await connection.close()
                } else {
                    try? await self.execute(connection, "ROLLBACK")
                }
                throw error
            }
        }
    }

    /// The rows of `query`, all of them.
    func rows(_ connection: PostgresConnection, _ query: PostgresQuery) async throws -> [PostgresRow] {
        tally.sent(statements: 1, roundTrips: 1)
        return try await connection.query(query, logger: logger).collect()
    }

    /// Runs `query` for its effect.
    func execute(_ connection: PostgresConnection, _ query: PostgresQuery) async throws {
        tally.sent(statements: 1, roundTrips: 1)
        _ = try await connection.query(query, logger: logger).collect()
    }
}

/// Who came first: the pooled connection for an operation, or the end of its wait. Exactly one of `start()` and
/// `expire()` returns true, so an operation either runs whole or not at all.
final class ConnectionWait: Sendable {
    struct TimedOut: Error {}

    private enum State { case waiting, started, expired }
    private let state = Mutex(State.waiting)

    /// The connection arrived: true when the wait had not expired, and from now on it cannot.
    func start() -> Bool { move(to: .started) }

    /// The wait is over: true when no connection had arrived, and from now on none may start.
    func expire() -> Bool { move(to: .expired) }

    private func move(to next: State) -> Bool {
        state.withLock { current in
            guard current == .waiting else { return false }
            current = next
            return true
        }
    }
}
