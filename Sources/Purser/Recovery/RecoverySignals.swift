/// Where `PurchaseCoordinator` hears, without being asked, that a recovery pass is worth running: the network came
/// back, the app returned to the foreground. `system` watches the device; `none` leaves recovery to launch, login and
/// explicit `recover(_:)` calls (tests, the chaos harness, apps with their own triggers).
public struct RecoverySignals: Sendable {
    private let make: @Sendable () -> AsyncStream<RecoveryTrigger>

    /// Signals from `make`, called once per `PurchaseCoordinator.start()`; the coordinator stops listening (and the
    /// stream's `onTermination` runs) when it shuts down.
    public init(_ make: @escaping @Sendable () -> AsyncStream<RecoveryTrigger>) {
        self.make = make
    }

    /// No signals.
    public static let none = RecoverySignals { AsyncStream { $0.finish() } }

    /// A new stream of triggers.
    func triggers() -> AsyncStream<RecoveryTrigger> { make() }
}
