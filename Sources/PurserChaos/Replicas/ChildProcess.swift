import Foundation
import Subprocess
import Synchronization
import SystemPackage

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A program started in the background, its standard output and error going to one log file: how `purser chaos`
/// starts its replicas and how the tests start `purser serve`. It is launched by swift-subprocess, which closes the
/// inherited descriptors with `close_range`; Foundation's `Process.run()` on Linux can crash the parent while it lists
/// `/proc/self/fd` (swift-corelibs-foundation#5472, still in Swift 6.3.1), and did in one CI run of three.
public final class ChildProcess: Sendable {
    /// The child's process id.
    public let processIdentifier: Int32
    /// The file that holds what the child printed, standard output and error interleaved.
    public let log: URL
    private let exit: Exit
    private let waiter: Task<Int32, Never>
    /// Whether `log` is a temporary file of this child's own, removed with it.
    private let ownsLog: Bool

    private init(processIdentifier: Int32, log: URL, ownsLog: Bool, exit: Exit, waiter: Task<Int32, Never>) {
        self.processIdentifier = processIdentifier
        self.log = log
        self.ownsLog = ownsLog
        self.exit = exit
        self.waiter = waiter
    }

    deinit {
        if ownsLog { try? FileManager.default.removeItem(at: log) }
    }

    /// Starts `executable` with `arguments` and exactly `environment`; what it prints is appended to `log` (a new
    /// file in the temporary directory when nil).
    /// - Throws: when the program cannot be started (not found, not executable) or the log cannot be opened.
    public static func start(
        _ executable: URL, _ arguments: [String], environment: [String: String], log given: URL? = nil
    ) async throws -> ChildProcess {
        let log = given ?? FileManager.default.temporaryDirectory.appendingPathComponent("purser-child-\(UUID()).log")
        // swift-subprocess closes it (and the copy it makes for standard error) once the child is spawned.
        let descriptor = try FileDescriptor.open(
            FilePath(log.path), .writeOnly, options: [.create, .append], permissions: [.ownerReadWrite, .groupRead])
        let exit = Exit()
        let (started, starting) = AsyncStream.makeStream(of: Result<Int32, any Error>.self)
        let waiter = Task<Int32, Never> {
            let status: Int32
            do {
                let result = try await Subprocess.run(
                    .path(FilePath(executable.path)), arguments: Arguments(arguments),
                    environment: Self.subprocessEnvironment(environment), input: .none,
                    output: .fileDescriptor(descriptor, closeAfterSpawningProcess: true), error: .combinedWithOutput
                ) { execution in
                    starting.yield(.success(execution.processIdentifier.value))
                    starting.finish()
                }
                status = Self.code(result.terminationStatus)
            } catch {
                starting.yield(.failure(error))
                starting.finish()
                status = -1
            }
            exit.record(status)
            return status
        }
        for await outcome in started {
            switch outcome {
            case .success(let pid):
                return ChildProcess(
                    processIdentifier: pid, log: log, ownsLog: given == nil, exit: exit, waiter: waiter)
            case .failure(let error):
                if given == nil { try? FileManager.default.removeItem(at: log) }
                throw error
            }
        }
        throw CancellationError()
    }

    /// Runs `executable` to completion with `input` on its standard input, and hands back its exit status and what
    /// it printed on each stream.
    public static func run(
        _ executable: URL, _ arguments: [String], environment: [String: String], input: [UInt8] = []
    ) async throws -> Completed {
        let result = try await Subprocess.run(
            .path(FilePath(executable.path)), arguments: Arguments(arguments),
            environment: subprocessEnvironment(environment),
            input: .array(input), output: .string(limit: 64 << 20), error: .string(limit: 64 << 20))
        return Completed(
            status: code(result.terminationStatus), standardOutput: result.standardOutput,
            standardError: result.standardError)
    }

    /// What a program run to completion did.
    public struct Completed: Sendable {
        /// Its exit code, or 128 + the signal that ended it.
        public var status: Int32
        public var standardOutput: String
        public var standardError: String
    }

    /// Whether the child has not exited yet.
    public var isRunning: Bool { exit.status == nil }

    /// Its exit code once it has exited (128 + the signal when a signal ended it), nil while it runs.
    public var terminationStatus: Int32? { exit.status }

    /// Everything the child printed so far.
    public var output: String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }

    /// Everything the child printed, once it has exited.
    public func outputAfterExit() async -> String {
        await waitUntilExit()
        return output
    }

    /// Sends `signal` to the child while it runs (SIGKILL for a crash, SIGSTOP to freeze it).
    public func send(_ signal: Int32) {
        guard isRunning else { return }
        #if canImport(Glibc)
            _ = Glibc.kill(processIdentifier, signal)
        #elseif canImport(Darwin)
            _ = Darwin.kill(processIdentifier, signal)
        #endif
    }

    /// Asks the child to stop (SIGTERM).
    public func terminate() { send(SIGTERM) }

    /// Waits until the child has exited; its status.
    @discardableResult
    public func waitUntilExit() async -> Int32 { await waiter.value }

    private static func subprocessEnvironment(_ values: [String: String]) -> Subprocess.Environment {
        .custom(Dictionary(uniqueKeysWithValues: values.map { (Subprocess.Environment.Key(stringLiteral: $0), $1) }))
    }

    private static func code(_ status: TerminationStatus) -> Int32 {
        switch status {
        case .exited(let code): code
        case .signaled(let signal): 128 + signal
        }
    }

    /// The exit status, written once by the task that waits for the child.
    private final class Exit: Sendable {
        private let value = Mutex<Int32?>(nil)
        var status: Int32? { value.withLock { $0 } }
        func record(_ status: Int32) { value.withLock { $0 = status } }
    }
}
