import Foundation

/// The production stack under `--database-ha patroni`: etcd, three PostgreSQL servers each run by Patroni in
/// synchronous mode, and pgbouncer in front of the leader, as `scripts/postgres-ha.sh` brings them up on loopback.
/// The harness drives that script: `start`, then for each failover either a SIGKILL of the leader's PostgreSQL
/// (Patroni notices and promotes the synchronous standby by itself) or a `patronictl switchover` (a planned one),
/// alternately, `wait-healthy` before the next, and `stop`.
final class PatroniCluster: FailoverDatabase {
    /// Which of the stack's URLs the replicas get.
    enum Entry: String, Sendable {
        /// The three servers in one multi-host URL, `target_session_attrs=read-write`: Purser finds the leader.
        case direct
        /// pgbouncer in transaction pool mode (a server connection per transaction, not per client), which the
        /// script points at each new leader.
        case pgbouncer
    }

    private let script: URL
    private let directory: URL
    private let urls: [String: String]
    private let entry: Entry

    private init(script: URL, directory: URL, urls: [String: String], entry: Entry) {
        self.script = script
        self.directory = directory
        self.urls = urls
        self.entry = entry
    }

    /// Starts the stack in `directory` (which must not exist yet) with `script`.
    /// - Throws: `ChaosError(.setupFailed)` with the script's own message when it does not come up.
    static func start(script: URL, in directory: URL, entry: Entry) async throws -> PatroniCluster {
        let output = try await run(
            script, ["start", directory.path] + (entry == .pgbouncer ? ["--pool-mode", "transaction"] : []))
        var urls: [String: String] = [:]
        for line in output.split(separator: "\n") {
            guard let equals = line.firstIndex(of: "=") else { continue }
            urls[String(line[..<equals])] = String(line[line.index(after: equals)...])
        }
        let cluster = PatroniCluster(script: script, directory: directory, urls: urls, entry: entry)
        guard urls["direct"] != nil, urls["pgbouncer"] != nil else {
            await cluster.stop()
            throw ChaosError(.setupFailed, "\(script.lastPathComponent) start printed no URLs: \(output.suffix(300))")
        }
        return cluster
    }

    func url() -> String { urls[entry.rawValue] ?? "" }

    func failOver(number: Int) async throws -> FailoverStep {
        let before = try await leader()
        if number.isMultiple(of: 2) {
            let node = try await Self.run(script, ["kill-leader", directory.path])
                .trimmingCharacters(in: .whitespacesAndNewlines)
            return FailoverStep(
                killedPort: before.port,
                how: "\(node)'s PostgreSQL SIGKILLed, Patroni promoted the synchronous standby",
                promotedAfterSeconds: nil)
        }
        let clock = ContinuousClock()
        let start = clock.now
        let switched = try await Self.run(script, ["failover", directory.path])
            .trimmingCharacters(in: .whitespacesAndNewlines)
        return FailoverStep(
            killedPort: before.port, how: "patronictl switchover \(switched)",
            promotedAfterSeconds: (clock.now - start).seconds)
    }

    func recover() async throws {
        try await Self.run(script, ["wait-healthy", directory.path])
    }

    func stop() async {
        _ = try? await Self.run(script, ["stop", directory.path])
    }

    /// The leader's node and PostgreSQL port (`postgres-ha.sh leader`, which asks each node's Patroni).
    private func leader() async throws -> (node: String, port: Int) {
        let fields = try await Self.run(script, ["leader", directory.path]).split(separator: " ")
        guard fields.count == 2, let port = Int(fields[1].trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw ChaosError(.setupFailed, "the Patroni cluster in \(directory.path) has no leader")
        }
        return (String(fields[0]), port)
    }

    @discardableResult
    private static func run(_ script: URL, _ arguments: [String]) async throws -> String {
        let completed = try await ChildCommand.run(URL(fileURLWithPath: "/bin/bash"), [script.path] + arguments)
        guard completed.status == 0 else {
            throw ChaosError(
                .setupFailed,
                "\(script.lastPathComponent) \(arguments.first ?? "") failed (\(completed.status)): "
                    + completed.standardError.suffix(600))
        }
        return completed.standardOutput
    }
}
