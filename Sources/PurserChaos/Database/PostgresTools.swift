import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// PostgreSQL's server programs (`initdb`, `pg_ctl`, `pg_basebackup`, `psql`) as `PostgresPair` runs them: beside
/// `pg_ctl` (links followed) found on `PATH` or in the newest `/usr/lib/postgresql/N/bin`, and run as the `postgres` user when this process is root (the
/// server refuses root), as `scripts/postgres.sh` does.
struct PostgresTools: Sendable {
    let bin: URL
    /// `runuser` when root, nil otherwise.
    let runuser: URL?

    /// - Throws: `ChaosError(.setupFailed)` when PostgreSQL's server programs are not installed.
    init() throws(ChaosError) {
        let files = FileManager.default
        let path = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init)
        let versions = ((try? files.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? [])
            .compactMap(Int.init).sorted().reversed().map { "/usr/lib/postgresql/\($0)/bin" }
        // The directory pg_ctl really lives in (PATH may hold a link to it alone) has its siblings.
        let found = (path + versions).first { files.isExecutableFile(atPath: $0 + "/pg_ctl") }
        guard
            let directory = found.map({ URL(fileURLWithPath: $0 + "/pg_ctl").resolvingSymlinksInPath() })?
                .deletingLastPathComponent(),
            ["initdb", "pg_basebackup", "psql"].allSatisfy({
                files.isExecutableFile(atPath: directory.appendingPathComponent($0).path)
            })
        else {
            throw ChaosError(
                .setupFailed,
                "database-failover starts its own PostgreSQL: install its server programs (initdb, pg_ctl, "
                    + "pg_basebackup, psql), "
                    + "for instance Debian's postgresql package")
        }
        bin = directory
        runuser =
            getuid() == 0
            ? ["/usr/sbin/runuser", "/sbin/runuser", "/usr/bin/runuser"].first(where: files.isExecutableFile)
                .map(URL.init(fileURLWithPath:)) : nil
    }

    /// Runs `program` to the end as the server's user.
    /// - Throws: `ChaosError(.setupFailed)` with what it printed when it fails.
    @discardableResult
    func run(_ program: String, _ arguments: [String]) async throws -> String {
        let executable = bin.appendingPathComponent(program)
        let completed =
            if let runuser {
                try await ChildCommand.run(runuser, ["-u", "postgres", "--", executable.path] + arguments)
            } else {
                try await ChildCommand.run(executable, arguments)
            }
        guard completed.status == 0 else {
            throw ChaosError(
                .setupFailed, "\(program) failed (\(completed.status)): \(completed.standardError.suffix(600))")
        }
        return completed.standardOutput
    }

    /// Runs one SQL statement with `psql` on the server at `port` and hands back its unaligned output.
    @discardableResult
    func sql(_ statement: String, port: Int) async throws -> String {
        try await run(
            "psql", ["-h", "127.0.0.1", "-p", "\(port)", "-U", "postgres", "-d", "postgres", "-Atqc", statement]
        )
        .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Makes `directory` (and its parents) and hands it to the server's user.
    func prepare(_ directory: URL) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        guard runuser != nil, let user = getpwnam("postgres") else { return }
        _ = chown(directory.path, user.pointee.pw_uid, user.pointee.pw_gid)
    }

    /// A TCP port on 127.0.0.1 that nothing listens on now.
    static func freePort() throws(ChaosError) -> Int {
        #if canImport(Glibc)
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw ChaosError(.setupFailed, "cannot open a socket to find a free port") }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                bind(descriptor, socketAddress, length) == 0 && getsockname(descriptor, socketAddress, &length) == 0
            }
        }
        guard bound else { throw ChaosError(.setupFailed, "cannot bind a socket to find a free port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
