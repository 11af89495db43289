import AppStoreSimulator
import AppStoreVerification
import Foundation
import Purser
import Synchronization

/// The app half of a field flow on one device (StoreKit 1, as most field code is): `addPayment` with the user id as
/// `applicationUsername`, an observer that sends each purchased transaction's receipt to the server and finishes
/// when the server says OK. Under `finishThenVerify` it finishes first. No journal, no order ids.
final class FieldApp: Sendable {
    let plan: DevicePlan
    let device: SimulatedDevice
    let server: FieldServer
    private let inbox = Mutex<[DeviceTransaction]>([])
    private let state = Mutex<(process: SimulatedProcess?, user: String?)>((nil, nil))
    private let faults = Mutex<[NetworkFaults.Fault]>([])

    init(
        plan: DevicePlan, appStore: SimulatedAppStore, server: FieldServer, directory: URL, record: ChaosRecord,
        runSeed: UInt64
    ) {
        self.plan = plan
        self.server = server
        let device = plan.makeDevice(store: appStore, directory: directory, runSeed: runSeed)
        self.device = device
        device.onFinish { transactionID in
            if await !server.hasDecided(transactionID) { record.finishedEarly(transactionID, ledger: "no answer yet") }
        }
    }

    private var process: SimulatedProcess? {
        state.withLock { $0.process }.flatMap { $0.isAlive ? $0 : nil }
    }

    /// Starts the app for `user` (or signs `user` in); the observer gets StoreKit's unfinished transactions.
    func ensureRunning(as user: String) async {
        if process != nil {
            state.withLock { $0.user = user }
            return
        }
        let process = device.launch()
        state.withLock { $0 = (process, user) }
        inbox.withLock { $0 = [] }
        _ = device.addObserver(process) { [weak self] updates in
            self?.inbox.withLock { $0.append(contentsOf: updates) }
        }
        await drain(crash: nil)
    }

    func arm(_ faults: [NetworkFaults.Fault]) { self.faults.withLock { $0 = faults } }
    func stopFaults() { faults.withLock { $0 = [] } }

    func buy(_ productID: String, crash: PurchaseStep?) async {
        guard let process else { return }
        if crash == .orderCreated || crash == .journaled { return kill() }
        let user = state.withLock { $0.user }
        await device.addPayment(process, productID: productID, quantity: 1, applicationUsername: user)
        await drain(crash: crash)
    }

    /// The observer's work: each purchased transaction is verified, then finished; failed ones are finished.
    func drain(crash: PurchaseStep?) async {
        while let process {
            let updates = inbox.withLock { inbox in
                defer { inbox = [] }
                return inbox
            }
            if updates.isEmpty { return }
            for update in updates {
                guard process.isAlive else { return }
                switch update.state {
                case .purchased: await handle(update, process: process, crash: crash)
                case .failed: await device.finishTransaction(process, queueID: update.queueID)
                default: break
                }
            }
        }
    }

    private func handle(_ transaction: DeviceTransaction, process: SimulatedProcess, crash: PurchaseStep?) async {
        guard let transactionID = transaction.transactionID else { return }
        if crash == .paid { return kill() }
        if (try? Data(contentsOf: device.receiptURL)) == nil { try? await device.refreshReceipt(process) }
        guard let receipt = try? Data(contentsOf: device.receiptURL).base64EncodedString() else { return }
        if server.flaw == .finishThenVerify { await device.finishTransaction(process, queueID: transaction.queueID) }
        let fault = faults.withLock { $0.isEmpty ? nil : $0.removeFirst() }
        if fault == .requestLost { return }
        let user = state.withLock { $0.user } ?? ""
        let answer = await server.submit(
            receipt: receipt, transactionID: transactionID,
            applicationUsername: transaction.applicationUsername, submitter: user)
        if fault == .responseLost { return }
        guard case .ok = answer else {
            if case .refused = answer { await device.finishTransaction(process, queueID: transaction.queueID) }
            return
        }
        if crash == .decided { return kill() }
        await device.finishTransaction(process, queueID: transaction.queueID)
        if crash == .finished { return kill() }
    }

    func kill() {
        device.kill()
        state.withLock { $0.process = nil }
    }

    func uninstall() {
        kill()
        device.uninstall()
    }
}
