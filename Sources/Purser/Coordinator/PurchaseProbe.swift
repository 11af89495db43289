/// Called at every `PurchaseStep`. Throwing stops the coordinator dead at that step, as a crash would.
public struct PurchaseProbe: Sendable {
    let check: @Sendable (PurchaseStep) async throws -> Void

    /// A probe that runs `check` at every step; tests throw from it to kill the app there.
    public init(_ check: @escaping @Sendable (PurchaseStep) async throws -> Void) {
        self.check = check
    }

    /// Never interrupts.
    public static let none = PurchaseProbe { _ in }
}
