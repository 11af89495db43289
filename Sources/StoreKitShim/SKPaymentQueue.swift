import AppStoreSimulator
import AppStoreVerification
import Foundation
import Synchronization

/// StoreKit 1's payment queue on a simulated device. Like StoreKit's, every call is asynchronous under the hood
/// and applied in order; observers hear about changes through `paymentQueue(_:updatedTransactions:)`.
open class SKPaymentQueue: NSObject, @unchecked Sendable {
    private enum Command {
        case addObserver(ObserverBox)
        case removeObserver(ObjectIdentifier)
        case addPayment(productID: String, quantity: Int, applicationUsername: String?, label: String?)
        case finish(queueID: String)
    }

    private static let queues = Mutex<[SimulatedProcess: SKPaymentQueue]>([:])

    let process: SimulatedProcess
    private let commands: AsyncStream<Command>.Continuation
    private let observerIDs = Mutex<[ObjectIdentifier: Int]>([:])

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
        Task { [process, weak self] in
            for await command in stream {
                switch command {
                case .addObserver(let box):
                    let id = process.device.addObserver(process) { [weak self] entries in
                        guard let self else { return }
                        box.observer?.paymentQueue(self, updatedTransactions: entries.map(SKPaymentTransaction.init))
                    }
                    if let id { self?.observerIDs.withLock { $0[box.key] = id } }
                case .removeObserver(let key):
                    if let id = self?.observerIDs.withLock({ $0.removeValue(forKey: key) }) {
                        process.device.removeObserver(process, id: id)
                    }
                case .addPayment(let productID, let quantity, let username, let label):
                    await process.device.addPayment(
                        process, productID: productID, quantity: quantity,
                        applicationUsername: username, label: label)
                case .finish(let queueID):
                    await process.device.finishTransaction(process, queueID: queueID)
                }
            }
        }
    }

    deinit {
        commands.finish()
    }

    open func add(_ observer: any SKPaymentTransactionObserver) {
        commands.yield(.addObserver(ObserverBox(observer)))
    }

    open func remove(_ observer: any SKPaymentTransactionObserver) {
        commands.yield(.removeObserver(ObjectIdentifier(observer)))
    }

    open func add(_ payment: SKPayment) {
        commands.yield(
            .addPayment(
                productID: payment.productIdentifier, quantity: payment.quantity,
                applicationUsername: payment.applicationUsername,
                label: SimulatedDevice.paymentLabel))
    }

    open func finishTransaction(_ transaction: SKPaymentTransaction) {
        commands.yield(.finish(queueID: transaction.queueID))
    }

    /// The transactions in the queue now: unfinished purchases, failures not yet finished, deferred payments.
    open var transactions: [SKPaymentTransaction] {
        process.device.queueTransactions(process).map(SKPaymentTransaction.init)
    }
}

/// Holds an observer weakly, as `SKPaymentQueue` does.
private final class ObserverBox: @unchecked Sendable {
    weak var observer: (any SKPaymentTransactionObserver)?
    let key: ObjectIdentifier

    init(_ observer: any SKPaymentTransactionObserver) {
        self.observer = observer
        self.key = ObjectIdentifier(observer)
    }
}
