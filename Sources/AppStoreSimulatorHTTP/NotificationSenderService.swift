import AppStoreSimulator
import ServiceLifecycle

/// Delivers the simulator's due notifications every `interval` until shutdown, as Apple's sender would.
public struct NotificationSenderService: Service {
    public let store: SimulatedAppStore
    public let interval: Duration

    public init(store: SimulatedAppStore, interval: Duration = .milliseconds(250)) {
        self.store = store
        self.interval = interval
    }

    public func run() async throws {
        while !Task.isCancelled, !Task.isShuttingDownGracefully {
            await store.deliverDueNotifications()
            try? await cancelWhenGracefulShutdown { try await Task.sleep(for: interval) }
        }
    }
}

extension NotificationSenderService: CustomStringConvertible {
    /// What the service group logs for it (the simulated App Store holds its signing keys).
    public var description: String { "NotificationSenderService(every: \(interval))" }
}
