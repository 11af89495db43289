/// One run of the app on a simulated device, from launch to kill. StoreKit shims find the device through
/// `SimulatedProcess.current` (a task local, so parallel tests each see their own device), and everything a killed
/// process tries afterwards (finish, pay, listen) is ignored, as it would be for a dead process.
public struct SimulatedProcess: Sendable, Hashable {
    public let device: SimulatedDevice
    public let generation: Int

    /// The process the current task belongs to: the app sets it with `$current.withValue` around its work, and
    /// the device sets it around each observer callback.
    @TaskLocal public static var current: SimulatedProcess?

    public static func == (lhs: SimulatedProcess, rhs: SimulatedProcess) -> Bool {
        lhs.device === rhs.device && lhs.generation == rhs.generation
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(device))
        hasher.combine(generation)
    }

    /// Whether this process is still the one running on its device.
    public var isAlive: Bool { device.isRunning(self) }
}
