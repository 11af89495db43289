import Synchronization

/// The transactions a developer's server finished through the App Store Server API (Finish Transaction). Simulated
/// devices read it synchronously, under their own lock, to drop those transactions from StoreKit's queue as a real
/// device does once Apple knows they are finished.
public final class ServerFinishedTransactions: Sendable {
    private let ids = Mutex<Set<String>>([])

    public init() {}

    /// Records that a server finished `transactionID`.
    public func insert(_ transactionID: String) {
        ids.withLock { _ = $0.insert(transactionID) }
    }

    /// Whether a server finished `transactionID`.
    public func contains(_ transactionID: String) -> Bool {
        ids.withLock { $0.contains(transactionID) }
    }

    /// Every transaction a server finished, now.
    public var snapshot: Set<String> {
        ids.withLock { $0 }
    }
}
