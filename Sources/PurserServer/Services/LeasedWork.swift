import Foundation
import PurserStorage

/// A unit of background work that runs on one replica at a time: it runs only while its holder holds the ledger's
/// lease on `name`, which is renewed every third of `term` while the work runs. A replica that dies stops renewing,
/// and another takes the work over once the lease expires; a holder whose renewal fails stops its work at once
/// (cancelled), since another replica may have taken over.
public struct LeasedWork: Sendable {
    public let name: String
    public let holder: String
    public let term: Duration
    let store: any LedgerStore
    let now: @Sendable () -> Date

    public init(
        _ name: String, holder: String, term: Duration, store: any LedgerStore,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.name = name
        self.holder = holder
        self.term = term
        self.store = store
        self.now = now
    }

    /// A holder name that tells replicas apart: host, process id and a random suffix.
    public static func holderName(_ role: String) -> String {
        "\(role)@\(ProcessInfo.processInfo.hostName):\(ProcessInfo.processInfo.processIdentifier):"
            + String(UInt32.random(in: .min ... .max), radix: 16)
    }

    /// Runs `body` if the lease can be taken now, and returns its result; `nil` when another holder has it. The lease
    /// is released when `body` ends. Throws `CancellationError` when the lease was lost while `body` ran.
    public func runIfFree<T: Sendable>(_ body: @Sendable @escaping () async throws -> T) async throws -> T? {
        guard try await acquire() else { return nil }
        let outcome: Result<T, any Error>
        do {
            outcome = .success(try await renewing(body))
        } catch {
            outcome = .failure(error)
        }
        try? await store.releaseLease(name, holder: holder)
        return try outcome.get()
    }

    /// Runs `body` once the lease is free, asking every `poll` (and telling `waiting`) for up to `wait`: `nil` when
    /// another holder kept it that long. What `purser reconcile` does while a replica reconciles.
    public func runWhenFree<T: Sendable>(
        within wait: Duration, poll: Duration = .seconds(2), waiting: @Sendable () -> Void = {},
        _ body: @Sendable @escaping () async throws -> T
    ) async throws -> T? {
        let deadline = ContinuousClock.now + wait
        while true {
            if let result = try await runIfFree(body) { return result }
            guard ContinuousClock.now < deadline else { return nil }
            waiting()
            try await Task.sleep(for: poll)
        }
    }

    /// Runs `body` while renewing the lease; cancels it when a renewal fails.
    private func renewing<T: Sendable>(_ body: @Sendable @escaping () async throws -> T) async throws -> T {
        try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask { try await body() }
            group.addTask {
                while true {
                    try await Task.sleep(for: term / 3)
                    guard try await acquire() else { throw CancellationError() }
                }
            }
            defer { group.cancelAll() }
            while let result = try await group.next() {
                if let result { return result }
            }
            throw CancellationError()
        }
    }

    private func acquire() async throws -> Bool {
        let now = now()
        return try await store.acquireLease(
            name, holder: holder, until: now.addingTimeInterval(term.timeInterval), now: now)
    }
}

extension Duration {
    /// The duration in seconds.
    var timeInterval: TimeInterval {
        let (seconds, attoseconds) = components
        return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
    }
}
