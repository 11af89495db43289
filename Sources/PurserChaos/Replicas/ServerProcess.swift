import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One `purser serve` child process, exactly as a user runs it (the same binary, a configuration file with port 0),
/// told apart by its log: each start writes one, and the port it got is read from it. It can be killed with SIGKILL
/// (no shutdown, no flush: a crash) and started again on the same database.
final class ServerProcess: Sendable {
    let name: String
    let executable: URL
    let configuration: URL
    let logDirectory: URL
    private let running = Mutex<(process: ChildProcess, url: URL?)?>(nil)
    private let starts = Mutex(0)

    init(name: String, executable: URL, configuration: URL, logDirectory: URL) {
        self.name = name
        self.executable = executable
        self.configuration = configuration
        self.logDirectory = logDirectory
    }

    /// Where the running server listens.
    var url: URL? { running.withLock { $0?.url } }

    /// The child's process id while it runs.
    var pid: Int32? { running.withLock { $0.flatMap { $0.process.isRunning ? $0.process.processIdentifier : nil } } }

    /// Starts the server, learns its port from its log, and waits until `GET /health` answers (at most `timeout`).
    /// Returns where it listens.
    /// - Throws: `ChaosError(.setupFailed)` when it exits or does not answer in time, naming its log.
    @discardableResult
    func start(client: HTTPClient, timeout: Duration = .seconds(30)) async throws -> URL {
        let attempt = starts.withLock {
            $0 += 1
            return $0
        }
        let log = logDirectory.appendingPathComponent("\(name)-\(attempt).log")
        let process: ChildProcess
        do {
            process = try await ChildProcess.start(
                executable, ["serve", "--config", configuration.path, "--log-level", "info"],
                environment: ChildCommand.environment, log: log)
        } catch {
            throw ChaosError(.setupFailed, "cannot start \(executable.path) serve: \(error)")
        }
        running.withLock { $0 = (process, nil) }
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            guard process.isRunning else {
                let last = process.output.split(separator: "\n").suffix(3).joined(separator: " | ")
                throw ChaosError(
                    .setupFailed,
                    "\(name) exited with \(process.terminationStatus ?? -1); see \(log.path) (last lines: \(last))")
            }
            if let url = Self.listeningURL(in: log), await Self.isHealthy(url, client: client) {
                running.withLock { $0 = (process, url) }
                return url
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw ChaosError(.setupFailed, "\(name) did not answer /health within \(timeout); see \(log.path)")
    }

    /// Sends SIGKILL and waits until the process is gone: no graceful shutdown, as a crash or an OOM kill.
    func kill() async {
        guard let process = running.withLock({ $0?.process }), process.isRunning else { return }
        process.send(SIGKILL)
        await process.waitUntilExit()
    }

    /// Asks the server to stop (SIGTERM, a graceful shutdown) and waits for it; SIGKILL after `grace`.
    func stop(grace: Duration = .seconds(10)) async {
        guard let process = running.withLock({ $0?.process }), process.isRunning else { return }
        process.terminate()
        let deadline = ContinuousClock.now + grace
        while process.isRunning, ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(20)) }
        await kill()
    }

    /// The address Hummingbird's start-up line names ("Server started and listening on 127.0.0.1:PORT").
    private static func listeningURL(in log: URL) -> URL? {
        guard let text = try? String(contentsOf: log, encoding: .utf8),
            let match = text.firstMatch(of: /listening on 127\.0\.0\.1:(\d+)/)
        else { return nil }
        return URL(string: "http://127.0.0.1:\(match.1)")
    }

    static func isHealthy(_ url: URL, client: HTTPClient) async -> Bool {
        let request = HTTPClientRequest(url: url.appendingPathComponent("health").absoluteString)
        guard let response = try? await client.execute(request, timeout: .seconds(1)) else { return false }
        _ = try? await response.body.collect(upTo: 4096)
        return response.status == .ok
    }
}
