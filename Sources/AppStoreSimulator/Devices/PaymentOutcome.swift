/// What the simulated user does with the next payment sheet. Tests queue outcomes on a device; without one queued,
/// the user pays (or, with Ask to Buy on, asks a parent).
public enum PaymentOutcome: Sendable, Hashable {
    case pay
    /// The user takes this long on the sheet (a bank asks them to confirm), then pays: a StoreKit 1 app that stopped
    /// waiting hears of the purchase later, through its observer.
    case payAfter(Duration)
    /// The sheet stays open until the test calls `SimulatedDevice.releaseHeldSheet()`, then the user pays: a slow
    /// payment whose order against the app's own wait does not depend on how busy the machine is.
    case payWhenReleased
    case cancel
    case fail(DeviceFailure)
    case askToBuy
}
