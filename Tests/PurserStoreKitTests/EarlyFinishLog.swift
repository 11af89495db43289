import Synchronization

/// The transactions an app finished before the server had a decision (invariant 5: must stay empty).
final class EarlyFinishLog: Sendable {
    private let finished = Mutex<[String]>([])

    func record(_ transactionID: String) { finished.withLock { $0.append(transactionID) } }

    var transactionIDs: [String] { finished.withLock { $0 } }
}
