import AppStoreSimulator
import Foundation
import Synchronization

/// StoreKit 1's payment queue on a simulated device. `Sendable` as Apple's is. Like StoreKit's, payments, finishes and
/// restores are asynchronous under the hood and applied in order, while adding or removing an observer takes effect at
/// once; observers hear about changes through `paymentQueue(_:updatedTransactions:)`, and `transactions` stays empty
/// until an observer is registered.
@available(*, deprecated, message: "No longer supported: use Product.purchase(confirmIn:options:) and Transaction")
open class SKPaymentQueue: NSObject, @unchecked Sendable {
    // @unchecked: the mutable state is behind `Mutex`es; commands run in order on one task.
    private enum Command: Sendable {
        case addPayment(productID: String, quantity: Int, applicationUsername: String?, label: String?)
        case finish(queueID: String)
        case restore
    }

    private static let queues = Mutex<[SimulatedProcess: SKPaymentQueue]>([:])

    let process: SimulatedProcess
    private let commands: AsyncStream<Command>.Continuation
    /// The registered observers, with the device's id for each.
    private let observers = Mutex<[ObjectIdentifier: (box: ObserverBox, id: Int)]>([:])

    /// The queue of the app process the calling task runs in (`SimulatedProcess.current`).
    open class func `default`() -> SKPaymentQueue {
        guard let process = SimulatedProcess.current else {
            fatalError("StoreKitShim: no simulated device; run the app inside SimulatedProcess.$current.withValue")
        }
        return queues.withLock { queues in
            queues = queues.filter { $0.key.isAlive }
            if let queue = queues[process] { return queue }
            let queue = SKPaymentQueue(process: process)
            queues[process] = queue
            return queue
        }
    }

    init(process: SimulatedProcess) {
        self.process = process
        let (stream, continuation) = AsyncStream.makeStream(of: Command.self)
        self.commands = continuation
        super.init()
        Task { [weak self] in
            for await command in stream {
                guard let self else { return }
                await self.run(command)
            }
        }
    }

    deinit {
        commands.finish()
    }

    /// Registers `observer` (held weakly) now; StoreKit redelivers every unfinished transaction to it.
    open func add(_ observer: any SKPaymentTransactionObserver) {
        let box = ObserverBox(observer)
        let id = process.device.addObserver(process) { [weak self] entries in
            guard let self else { return }
            box.observer?.paymentQueue(self, updatedTransactions: entries.map(SKPaymentTransaction.init))
        }
        if let id { observers.withLock { $0[box.key] = (box, id) } }
    }

    open func remove(_ observer: any SKPaymentTransactionObserver) {
        if let id = observers.withLock({ $0.removeValue(forKey: ObjectIdentifier(observer)) })?.id {
            process.device.removeObserver(process, id: id)
        }
    }

    /// Queues `payment`. What the queue needs is read now, so the app may let go of the payment.
    open func add(_ payment: SKPayment) {
        commands.yield(
            .addPayment(
                productID: payment.productIdentifier, quantity: payment.quantity,
                applicationUsername: payment.applicationUsername, label: SimulatedDevice.paymentLabel))
    }

    open func finishTransaction(_ transaction: SKPaymentTransaction) {
        commands.yield(.finish(queueID: transaction.queueID))
    }

    /// Delivers every restorable purchase (non-consumables) as a new `restored` transaction, then tells the observers
    /// `paymentQueueRestoreCompletedTransactionsFinished(_:)`, or the error.
    open func restoreCompletedTransactions() {
        commands.yield(.restore)
    }

    /// The transactions in the queue now: unfinished purchases and restorations, failures not yet finished, deferred
    /// payments. Undefined (here: empty) while no observer is registered, as Apple documents.
    open var transactions: [SKPaymentTransaction] {
        process.device.queueTransactions(process).map(SKPaymentTransaction.init)
    }

    private func run(_ command: Command) async {
        let device = process.device
        switch command {
        case .addPayment(let productID, let quantity, let username, let label):
            await device.addPayment(
                process, productID: productID, quantity: quantity, applicationUsername: username, label: label)
        case .finish(let queueID):
            await device.finishTransaction(process, queueID: queueID)
        case .restore:
            let failure = await device.restoreCompletedTransactions(process)
            for (box, _) in observers.withLock({ Array($0.values) }) {
                guard let observer = box.observer else { continue }
                if let failure {
                    observer.paymentQueue(self, restoreCompletedTransactionsFailedWithError: SKError(failure: failure))
                } else {
                    observer.paymentQueueRestoreCompletedTransactionsFinished(self)
                }
            }
        }
    }
}

/// Holds an observer weakly, as `SKPaymentQueue` does.
@available(*, deprecated, message: "StoreKit 1")
private final class ObserverBox: @unchecked Sendable {
    // @unchecked: StoreKit calls observers from its own queue; the weak reference is only read there.
    weak var observer: (any SKPaymentTransactionObserver)?
    let key: ObjectIdentifier

    init(_ observer: any SKPaymentTransactionObserver) {
        self.observer = observer
        self.key = ObjectIdentifier(observer)
    }
}
