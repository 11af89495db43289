import Foundation
import Purser
import Synchronization

/// Recovery signals a test fires by hand, standing in for the device's network and foreground notifications.
final class ManualRecoverySignals: Sendable {
    private let streams = Mutex<[UUID: AsyncStream<RecoveryTrigger>.Continuation]>([:])

    /// What the coordinator listens to: every launch gets its own stream.
    var signals: RecoverySignals {
        RecoverySignals { [self] in
            let (stream, continuation) = AsyncStream.makeStream(of: RecoveryTrigger.self)
            let id = UUID()
            streams.withLock { $0[id] = continuation }
            continuation.onTermination = { [weak self] _ in _ = self?.streams.withLock { $0.removeValue(forKey: id) } }
            return stream
        }
    }

    /// How many coordinators listen now.
    var listeners: Int { streams.withLock { $0.count } }

    /// Sends `trigger` to every listening coordinator.
    func fire(_ trigger: RecoveryTrigger) {
        for continuation in streams.withLock({ Array($0.values) }) { continuation.yield(trigger) }
    }
}
