import NIOPosix

/// scrypt off Swift's cooperative threads: a hash costs tens of milliseconds of CPU (about a second in a debug
/// build), and on the cooperative pool (one thread per core) a few sign-ins at once would hold back every other
/// request of every app. NIO's blocking pool runs them instead, at most one per core at a time.
extension PasswordHash {
    /// `make(_:)` on NIO's blocking pool.
    static func made(_ password: String) async throws -> PasswordHash {
        try await NIOThreadPool.singleton.runIfActive { try make(password) }
    }

    /// `matches(_:)` on NIO's blocking pool; `false` when the pool is shut down.
    func checks(_ password: String) async -> Bool {
        (try? await NIOThreadPool.singleton.runIfActive { [self] in matches(password) }) ?? false
    }
}
