import Logging
import PostgresNIO
import ServiceLifecycle
import Synchronization

/// The `PostgresClient` the store's operations use, and, for a multi-host URL (or `target_session_attrs=read-write`),
/// the failover postgres-nio does not do: it checks the servers in the URL's order (`PostgresServerCheck`), runs a
/// pooled client on the first that qualifies, watches that server (its check connection every 50 ms, a check query
/// every `4 × serverCheckInterval`, and at once when an operation lost its connection or met a read-only server), and
/// when it no longer qualifies (closed, read-only, or three checks unanswered) looks again and moves the store to the
/// server that does, shutting the old pool down.
/// While no server qualifies (the primary died, the standby is not promoted yet) operations fail at once with
/// `storage_unavailable`; nothing is decided, and the client retries.
///
/// With one server and `any`, it is the one client the store always had: no check, no watch, no extra connection.
final class PostgresServerSwitch: Sendable {
    let configuration: PostgresLedgerStore.Configuration
    private let logger: Logger
    /// The one client of a single-server URL.
    private let fixed: PostgresClient?
    /// The client of the server in use, and its index in `configuration.servers`; nil while none qualifies.
    private let current = Mutex<(client: PostgresClient, server: Int)?>(nil)
    /// Counts the clients the switch has left: an operation that got its client in an earlier generation runs on a
    /// server the store has left.
    private let generation = Atomic<Int>(0)
    /// An operation lost its connection or met a read-only server since the last check.
    private let troubled = Atomic<Bool>(false)
    private let switches = Mutex(0)
    /// What the last look at every server found, for errors and logs.
    private let lastLook = Mutex("not looked yet")

    init(configuration: PostgresLedgerStore.Configuration, logger: Logger) {
        self.configuration = configuration
        self.logger = logger
        fixed =
            configuration.choosesServer
            ? nil : PostgresClient(configuration: configuration.client, backgroundLogger: logger)
    }

    /// The client for an operation now. Before the first server is chosen (the store just started) it waits for one,
    /// up to `connectionWaitTimeout`, as a pool waits for its first connection; in a failover's gap it does not wait.
    /// - Throws: `StorageError(.unavailable)` while no server of a multi-host URL qualifies.
    /// Also hands back the client's generation (see `hasLeft`).
    func client() async throws -> (PostgresClient, Int) {
        if let fixed { return (fixed, 0) }
        let clock = ContinuousClock()
        let deadline = clock.now + configuration.connectionWaitTimeout
        while true {
            if let (client, _) = current.withLock({ $0 }) { return (client, generation.load(ordering: .relaxed)) }
            guard switches.withLock({ $0 }) == 0, clock.now < deadline else {
                // The servers' addresses go to `underlying` (logs), not to the message a client may see.
                var error = StorageError(
                    .unavailable,
                    "no database server qualifies (target_session_attrs \(configuration.targetSessionAttributes.rawValue))"
                )
                error.underlying = lastLook.withLock { $0 }
                throw error
            }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    /// The server the store uses now (nil while none qualifies), and how many times it moved to another.
    var server: (server: PostgresLedgerStore.Configuration.Server?, choices: Int) {
        guard fixed == nil else {
            let client = configuration.client
            return (client.host.map { .init(host: $0, port: client.port ?? PostgresURL.defaultPort) }, 0)
        }
        let index = current.withLock { $0?.server }
        return (index.map { configuration.servers[$0] }, switches.withLock { $0 })
    }

    /// Whether the store chooses among several servers (else it has one fixed client).
    var choosesServer: Bool { fixed == nil }

    /// Whether the operation that recorded its client's generation in `used` runs on a server the store has left
    /// since.
    func hasLeft(_ used: Used) -> Bool {
        let recorded = used.generation.load(ordering: .relaxed)
        return recorded >= 0 && recorded != generation.load(ordering: .relaxed)
    }

    /// The generation of the client one operation got (-1 until it has one).
    final class Used: Sendable {
        let generation = Atomic<Int>(-1)
        func record(_ value: Int) { generation.store(value, ordering: .relaxed) }
    }

    /// An operation failed as `unavailable`: check the server in use now rather than at the next interval.
    func operationFailed() {
        if fixed == nil { troubled.store(true, ordering: .relaxed) }
    }

    /// Runs the client (or the checks and the clients of a multi-host URL) until cancelled or graceful shutdown.
    func run() async {
        if let fixed { return await fixed.run() }
        await cancelWhenGracefulShutdown { await self.supervise() }
    }

    private func supervise() async {
        let check = PostgresServerCheck(configuration: configuration, logger: logger)
        await withDiscardingTaskGroup { group in
            var running: RunningClient?
            while !Task.isCancelled {
                guard let (index, connection) = await choose(check) else {
                    if let stopping = running {
                        logger.warning(
                            "database server \(stopping.server + 1) no longer qualifies: failing over",
                            metadata: ["servers": "\(lastLook.withLock { $0 })"])
                        current.withLock { $0 = nil }
                        generation.add(1, ordering: .relaxed)
                        stopping.stop()
                        running = nil
                    }
                    try? await Task.sleep(for: configuration.serverCheckInterval)
                    continue
                }
                if running?.server != index {
                    if let leaving = running {
                        generation.add(1, ordering: .relaxed)
                        leaving.stop()
                    }
                    let client = PostgresClient(
                        configuration: configuration.client(for: configuration.servers[index]),
                        backgroundLogger: logger)
                    running = RunningClient(client: client, server: index, in: &group)
                    current.withLock { $0 = (client, index) }
                    switches.withLock { $0 += 1 }
                    logger.notice(
                        "using database server \(index + 1) of \(configuration.servers.count)",
                        metadata: ["servers": "\(lastLook.withLock { $0 })"])
                }
                await watch(connection, check: check)
                Self.close(connection)
            }
            running?.stop()
        }
        current.withLock { $0 = nil }
    }

    /// Checks every server at once; the first in the URL's order that qualifies, with its check connection.
    private func choose(_ check: PostgresServerCheck) async -> (Int, PostgresConnection)? {
        typealias Look = Result<PostgresConnection, PostgresServerCheck.Refusal>
        let servers = configuration.servers
        let results = await withTaskGroup(of: (Int, Look).self) { checks in
            for (index, server) in servers.enumerated() {
                checks.addTask { (index, await check.connect(server)) }
            }
            var results: [Int: Look] = [:]
            for await (index, result) in checks { results[index] = result }
            return results
        }
        var found: [Int: PostgresConnection] = [:]
        var look: [String] = []
        for (index, result) in results.sorted(by: { $0.key < $1.key }) {
            let name = "server \(index + 1) (\(servers[index].host):\(servers[index].port))"
            switch result {
            case .success(let connection):
                found[index] = connection
                look.append("\(name) qualifies")
            case .failure(let refusal): look.append("\(name) \(refusal)")
            }
        }
        lastLook.withLock { $0 = look.joined(separator: "; ") }
        guard let first = found.keys.min() else { return nil }
        for (index, connection) in found where index != first { Self.close(connection) }
        return (first, found[first]!)
    }

    /// Returns once the server behind `connection` no longer qualifies, has closed the connection, or has not
    /// answered three checks in a row (a loaded server answers late and is kept; one the network lost is left), or
    /// on cancellation.
    private func watch(_ connection: PostgresConnection, check: PostgresServerCheck) async {
        let clock = ContinuousClock()
        let every = configuration.serverCheckInterval * 4
        var checked = clock.now
        var unanswered = 0
        while !Task.isCancelled {
            try? await Task.sleep(for: .milliseconds(50))
            let asked = troubled.exchange(false, ordering: .relaxed)
            guard asked || connection.isClosed || clock.now - checked >= every else { continue }
            switch await check.verdict(on: connection) {
            case .qualifies: unanswered = 0
            case .fails: return
            case .noAnswer:
                unanswered += 1
                guard unanswered < 3 else { return }
            }
            checked = clock.now
        }
    }

    /// Closes a check connection without waiting: postgres-nio's `close()` can wait for ever on a connection whose
    /// server died under a query, and a supervisor stuck there would keep a pool on a port that a rebuilt standby
    /// may take over (stale reads).
    private static func close(_ connection: PostgresConnection) {
        Task { try? await connection.close() }
    }

    /// A pooled client running in the switch's task group until `stop()`.
    private struct RunningClient {
        let server: Int
        private let stopping: AsyncStream<Void>.Continuation

        init(client: PostgresClient, server: Int, in group: inout DiscardingTaskGroup) {
            self.server = server
            let (stopped, stopping) = AsyncStream<Void>.makeStream()
            self.stopping = stopping
            group.addTask {
                await withTaskGroup(of: Void.self) { running in
                    running.addTask { await client.run() }
                    running.addTask { for await _ in stopped {} }
                    await running.next()
                    running.cancelAll()
                }
            }
        }

        func stop() { stopping.finish() }
    }
}
