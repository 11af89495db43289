/// What the simulated user does with the next payment sheet. Tests queue outcomes on a device; without one queued,
/// the user pays (or, with Ask to Buy on, asks a parent).
public enum PaymentOutcome: Sendable, Hashable {
    case pay
    case cancel
    case fail(DeviceFailure)
    case askToBuy
}
