#if canImport(Network)
    import Foundation
    import Network

    /// `networkAvailable` whenever the device's network path becomes usable again (`NWPathMonitor`).
    enum NetworkPathSignal {
        /// Starts watching; returns what stops it.
        static func start(_ emit: @escaping @Sendable (RecoveryTrigger) -> Void) -> @Sendable () -> Void {
            let transitions = PathTransitions()
            let monitor = NWPathMonitor()
            monitor.pathUpdateHandler = { path in
                if let trigger = transitions.observe(satisfied: path.status == .satisfied) { emit(trigger) }
            }
            monitor.start(queue: DispatchQueue(label: "purser.recovery.network"))
            let running = Unchecked(value: monitor)
            return { running.value.cancel() }
        }
    }

    /// `ConnectivityTransitions` behind a lock (`Mutex` needs iOS 18; the SDK supports iOS 17).
    private final class PathTransitions: @unchecked Sendable {
        // @unchecked: `transitions` is only touched under `lock`.
        private let lock = NSLock()
        private var transitions = ConnectivityTransitions()

        func observe(satisfied: Bool) -> RecoveryTrigger? {
            lock.withLock { transitions.observe(satisfied: satisfied) }
        }
    }

    /// The path monitor, for cancelling it from the stop closure: `NWPathMonitor.cancel()` may be called from any
    /// thread, whether or not the SDK in use marks the class `Sendable`.
    private struct Unchecked<Value>: @unchecked Sendable {
        let value: Value
    }
#endif
