import AppStoreSimulator
import Foundation

/// A StoreKit 1 request: `start()` runs it on the device; the delegate hears the result. Not `Sendable`, like Apple's:
/// make it, set its delegate and start it where you are.
@available(*, deprecated, message: "Use Product.products(for:) and AppTransaction")
open class SKRequest: NSObject {
    open weak var delegate: (any SKRequestDelegate)?
    /// The app process that made the request (its device answers).
    let process: SimulatedProcess?

    override public init() {
        process = SimulatedProcess.current
        super.init()
    }

    /// Sends the request; StoreKit answers the delegate on its own queue, as this does on a task.
    open func start() {
        let request = Unchecked(value: self)
        Task { await request.value.run() }
    }

    /// Does nothing here: a simulated request answers at once.
    open func cancel() {}

    /// What the request does; subclasses override it.
    func run() async {}
}
