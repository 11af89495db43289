import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A PostgreSQL primary and its synchronous standby on loopback, for failover tests and `purser chaos`'s
/// `database-failover`: the primary commits only once the standby has the commit (`synchronous_standby_names = '*'`),
/// so a commit it acknowledged survives its loss. `failOver()` kills the primary's processes with SIGKILL (a machine
/// lost), promotes the standby (`pg_ctl promote`), then builds a new standby from the new primary on the dead one's
/// port (`pg_basebackup -R`) and makes it synchronous again, so the two ports of `url` stay the pair's and the next
/// failover finds a standby ready. The server runs with `fsync=off` (a test server: a SIGKILL loses nothing from the
/// page cache).
public final class PostgresPair: Sendable {
    /// The two servers' ports; which is the primary changes at each failover.
    public let ports: [Int]
    /// The database made on the primary at the start (replicated to the standby).
    public let database: String
    private let directory: URL
    private let tools: PostgresTools
    /// The index in `ports` of the primary now.
    private let primary = Mutex(0)

    private init(directory: URL, ports: [Int], database: String, tools: PostgresTools) {
        self.directory = directory
        self.ports = ports
        self.database = database
        self.tools = tools
    }

    /// Starts a primary in `directory/server-1` and a synchronous standby in `directory/server-2`, with `database`
    /// made on the primary.
    /// - Throws: `ChaosError(.setupFailed)` when PostgreSQL is not installed or a server does not start.
    public static func start(in directory: URL, database: String = "purser") async throws -> PostgresPair {
        let tools = try PostgresTools()
        try tools.prepare(directory)
        let pair = PostgresPair(
            directory: directory, ports: [try PostgresTools.freePort(), try PostgresTools.freePort()],
            database: database, tools: tools)
        do {
            let first = pair.data(0)
            try tools.prepare(first.deletingLastPathComponent())
            try await tools.run(
                "initdb", ["-D", first.path, "-U", "postgres", "-A", "trust", "-E", "UTF8", "--locale=C", "--no-sync"])
            try await pair.startServer(0)
            try await tools.sql("CREATE DATABASE \(database)", port: pair.ports[0])
            try await pair.addStandby(1, of: 0)
        } catch {
            await pair.stop()
            throw error
        }
        return pair
    }

    /// The URL naming both servers (the standby first when `standbyFirst`), asking for the writable one.
    public func url(standbyFirst: Bool = false) -> String {
        let index = primary.withLock { $0 }
        let order = standbyFirst ? [1 - index, index] : [index, 1 - index]
        let hosts = order.map { "127.0.0.1:\(ports[$0])" }.joined(separator: ",")
        return "postgres://postgres@\(hosts)/\(database)?sslmode=disable&target_session_attrs=read-write"
    }

    /// The primary's port now.
    public var primaryPort: Int { ports[primary.withLock { $0 }] }

    /// The URL of the primary alone, and of the standby alone.
    public var primaryURL: String { single(primary.withLock { $0 }) }
    public var standbyURL: String { single(1 - primary.withLock { $0 }) }

    /// Kills the primary with SIGKILL (the postmaster and every backend at once). Nothing is promoted yet.
    public func killPrimary() {
        let index = primary.withLock { $0 }
        guard let pid = Self.postmaster(of: data(index)) else { return }
        for process in [pid] + Self.children(of: pid) { kill(process, SIGKILL) }
    }

    /// Promotes the standby (`pg_ctl promote`, waiting until it accepts writes): it is the primary from now on, and
    /// has no standby until `rebuildStandby()`.
    public func promoteStandby() async throws {
        let standby = 1 - primary.withLock { $0 }
        try await tools.run("pg_ctl", ["-D", data(standby).path, "-w", "-t", "60", "promote"])
        primary.withLock { $0 = standby }
    }

    /// Replaces the dead server by a new synchronous standby of the primary, on the same port.
    public func rebuildStandby() async throws {
        let index = primary.withLock { $0 }
        let dead = 1 - index
        try? FileManager.default.removeItem(at: data(dead))
        // The killed postmaster's socket lock names its pid, which may linger as a zombie not yet reaped: the new
        // server would take it for a live one and refuse to start.
        let socketDirectory = data(dead).deletingLastPathComponent()
        for name in (try? FileManager.default.contentsOfDirectory(atPath: socketDirectory.path)) ?? []
        where name.hasPrefix(".s.PGSQL.") {
            try? FileManager.default.removeItem(at: socketDirectory.appendingPathComponent(name))
        }
        try await addStandby(dead, of: index)
    }

    /// Stops both servers and deletes their files.
    public func stop() async {
        for index in ports.indices where FileManager.default.fileExists(atPath: data(index).path + "/postmaster.pid") {
            _ = try? await tools.run("pg_ctl", ["-D", data(index).path, "-m", "immediate", "-w", "stop"])
        }
        try? FileManager.default.removeItem(at: directory)
    }

    private func single(_ index: Int) -> String {
        "postgres://postgres@127.0.0.1:\(ports[index])/\(database)?sslmode=disable"
    }

    private func data(_ index: Int) -> URL {
        directory.appendingPathComponent("server-\(index + 1)").appendingPathComponent("data")
    }

    private func startServer(_ index: Int) async throws {
        let socketDirectory = data(index).deletingLastPathComponent().path
        let log = socketDirectory + "/server.log"
        do {
            try await tools.run(
                "pg_ctl",
                [
                    "-D", data(index).path, "-l", log, "-w", "-t", "60", "-o",
                    "-h 127.0.0.1 -p \(ports[index]) -k \(socketDirectory) -c fsync=off -c max_connections=300 "
                        + "-c wal_retrieve_retry_interval=100ms",
                    "start",
                ])
        } catch {
            let tail = ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").suffix(800)
            throw ChaosError(.setupFailed, "the server on port \(ports[index]) did not start: \(tail)")
        }
    }

    /// A base backup of `primary` in `index`'s place, started as its standby, then made synchronous: the primary
    /// names it in `synchronous_standby_names` only once it streams, so no commit waits for a standby still copying.
    private func addStandby(_ index: Int, of primary: Int) async throws {
        let copy = data(index)
        try tools.prepare(copy.deletingLastPathComponent())
        try await tools.run(
            "pg_basebackup",
            [
                "-D", copy.path, "-R", "-X", "stream", "-c", "fast", "--no-sync", "-h", "127.0.0.1", "-p",
                "\(ports[primary])", "-U", "postgres",
            ])
        // The copy carries the primary's ALTER SYSTEM settings: a promoted standby must not wait for a standby of its
        // own that does not exist yet.
        let settings = copy.appendingPathComponent("postgresql.auto.conf")
        if let text = try? String(contentsOf: settings, encoding: .utf8) {
            let kept = text.split(separator: "\n").filter { !$0.hasPrefix("synchronous_standby_names") }
            try (kept.joined(separator: "\n") + "\n").write(to: settings, atomically: false, encoding: .utf8)
        }
        try await startServer(index)
        let port = ports[primary]
        var waits = 0
        while try await tools.sql("SELECT count(*) FROM pg_stat_replication", port: port) == "0", waits < 1_200 {
            try await Task.sleep(for: .milliseconds(50))
            waits += 1
        }
        try await tools.sql("ALTER SYSTEM SET synchronous_standby_names = '*'", port: port)
        try await tools.sql("SELECT pg_reload_conf()", port: port)
        for _ in 0..<600 {
            let state = try await tools.sql("SELECT string_agg(sync_state, ',') FROM pg_stat_replication", port: port)
            if state.split(separator: ",").contains("sync") { return }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw ChaosError(.setupFailed, "the standby on port \(ports[index]) did not become synchronous")
    }

    /// The postmaster's process id, from the first line of `postmaster.pid`.
    private static func postmaster(of data: URL) -> Int32? {
        guard let text = try? String(contentsOf: data.appendingPathComponent("postmaster.pid"), encoding: .utf8)
        else { return nil }
        return text.split(separator: "\n").first.flatMap { Int32($0) }
    }

    /// The processes whose parent is `pid` (the server's backends and helpers), read from `/proc`.
    private static func children(of pid: Int32) -> [Int32] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap(Int32.init).filter { child in
            guard let stat = try? String(contentsOfFile: "/proc/\(child)/stat", encoding: .utf8),
                let end = stat.lastIndex(of: ")")
            else { return false }
            // After "pid (name) ": the state, then the parent's pid.
            let fields = stat[stat.index(after: end)...].split(separator: " ")
            return fields.count > 1 && Int32(fields[1]) == pid
        }
    }
}
