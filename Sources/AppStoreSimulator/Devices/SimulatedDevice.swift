import AppStoreVerification
import Foundation
import PurserCore

/// A phone as StoreKit behaves on it in the field, paying through a `SimulatedAppStore`: unfinished transactions are
/// redelivered whenever an observer or listener starts, buying a product whose earlier purchase is unfinished only
/// reports `purchasing` (StoreKit 1), `applicationUsername` can come back nil, the app receipt carries every
/// unfinished consumable, Ask to Buy defers a payment until a parent approves, and the app can be killed, uninstalled
/// and relaunched while StoreKit's queue survives.
///
/// The app side sees it only through the StoreKit shims; tests drive it with `launch`, `kill`, `uninstall`,
/// `queueOutcomes` and `approveAskToBuy`.
public final class SimulatedDevice: Sendable {
    public struct Configuration: Sendable {
        /// How often `applicationUsername` / the account token goes missing.
        public var lostApplicationUsername: TokenLoss
        /// Deliver every purchased transaction twice, as StoreKit sometimes does.
        public var duplicateCallbacks: Bool
        /// Payments wait for a parent's approval (`approveAskToBuy`).
        public var askToBuy: Bool
        /// Seeds the device's random choices, so a run replays exactly.
        public var seed: UInt64
        public var environment: AppStoreEnvironment

        public init(
            lostApplicationUsername: TokenLoss = .never, duplicateCallbacks: Bool = false, askToBuy: Bool = false,
            seed: UInt64 = 1, environment: AppStoreEnvironment = .sandbox
        ) {
            self.lostApplicationUsername = lostApplicationUsername
            self.duplicateCallbacks = duplicateCallbacks
            self.askToBuy = askToBuy
            self.seed = seed
            self.environment = environment
        }
    }

    /// Where `applicationUsername` gets lost.
    public enum TokenLoss: Sendable, Hashable {
        case never
        /// StoreKit 1 callbacks carry no `applicationUsername` at this rate (0...1); Apple still recorded the UUID,
        /// so signed transactions keep their `appAccountToken`.
        case onCallback(rate: Double)
        /// The token never reaches Apple at this rate (as when an app passed no UUID): callbacks, receipts and signed
        /// transactions all lack it, and only the app's journal can tell which order a purchase was for.
        case everywhere(rate: Double)
    }

    /// What StoreKit 2's `Product.purchase` answers.
    public enum PurchaseResult: Sendable, Hashable {
        case purchased(DeviceTransaction)
        case pending
        case userCancelled
        case failed(DeviceFailure)
    }

    /// One transaction Apple charged on the device, with the label of the payment that caused it.
    public struct Charge: Sendable, Hashable {
        public var transactionID: String
        /// `paymentLabel` as it was when the app asked for the payment; nil when none was set.
        public var label: String?

        public init(transactionID: String, label: String?) {
            self.transactionID = transactionID
            self.label = label
        }
    }

    /// Labels the payments asked for in a task, so that every charge names the purchase that caused it, even one
    /// that lands after the app stopped waiting for it (StoreKit 1 queues payments; a parent approves later).
    @TaskLocal public static var paymentLabel: String?

    /// A StoreKit 1 observer callback: `paymentQueue(_:updatedTransactions:)`.
    public typealias Observer = @Sendable ([DeviceTransaction]) -> Void
    /// Called before a transaction is finished; tests use it to check that the server decided first.
    public typealias FinishHook = @Sendable (_ transactionID: String) async -> Void

    private struct Deferred {
        var entry: DeviceTransaction
        var tokenForApple: String?
        var label: String?
    }

    private struct State {
        var generation = 0
        var running = false
        var observers: [Int: Observer] = [:]
        var listeners: [Int: AsyncStream<DeviceTransaction>.Continuation] = [:]
        var nextID = 0
        /// Purchased and not finished, oldest first: StoreKit's persistent queue.
        var unfinished: [DeviceTransaction] = []
        /// Failed StoreKit 1 payments, until the app finishes them.
        var failed: [DeviceTransaction] = []
        var deferred: [Deferred] = []
        var outcomes: [PaymentOutcome] = []
        var random: SeededGenerator
        var receiptPresent = false
        var finishCount: [String: Int] = [:]
        var finishHook: FinishHook?
        /// Every transaction Apple charged on this device, oldest first.
        var charged: [Charge] = []
    }

    public let id: String
    public let store: SimulatedAppStore
    public let configuration: Configuration
    /// The app's sandbox: removed on uninstall.
    public let containerDirectory: URL
    /// A Keychain-like place that survives uninstall.
    public let keychainDirectory: URL
    private let catalog: [String: DeviceProduct]
    private let state: LockedValue<State>

    /// - Parameters:
    ///   - directory: where the device keeps the app's container and its Keychain.
    public init(id: String, store: SimulatedAppStore, products: [DeviceProduct], directory: URL,
                configuration: Configuration = .init()) {
        self.id = id
        self.store = store
        self.configuration = configuration
        self.containerDirectory = directory.appendingPathComponent("container")
        self.keychainDirectory = directory.appendingPathComponent("keychain")
        self.catalog = Dictionary(products.map { ($0.id, $0) }, uniquingKeysWith: { _, last in last })
        self.state = LockedValue(State(random: SeededGenerator(seed: configuration.seed)))
    }

    /// The app receipt's file (what `Bundle.main.appStoreReceiptURL` points to on a phone).
    public var receiptURL: URL { containerDirectory.appendingPathComponent("StoreKit/receipt") }

    // MARK: Life cycle

    /// Starts the app (killing a running one first) and returns the new process.
    public func launch() -> SimulatedProcess {
        kill()
        try? FileManager.default.createDirectory(at: containerDirectory, withIntermediateDirectories: true)
        try? FileManager.default.createDirectory(at: keychainDirectory, withIntermediateDirectories: true)
        let generation = state.withLock { state in
            state.generation += 1
            state.running = true
            return state.generation
        }
        return SimulatedProcess(device: self, generation: generation)
    }

    /// Kills the app: its memory is gone, observers and listeners stop; StoreKit's queue and files stay.
    public func kill() {
        let listeners = state.withLock { state in
            state.running = false
            state.observers = [:]
            defer { state.listeners = [:] }
            return Array(state.listeners.values)
        }
        listeners.forEach { $0.finish() }
    }

    /// Kills and deletes the app: its container (journal files, receipt) goes; the Keychain and StoreKit's queue stay.
    public func uninstall() {
        kill()
        try? FileManager.default.removeItem(at: containerDirectory)
        state.withLock { $0.receiptPresent = false }
    }

    func isRunning(_ process: SimulatedProcess) -> Bool {
        state.withLock { $0.running && $0.generation == process.generation }
    }

    // MARK: Test controls

    /// What the user does with the next payment sheets, in order.
    public func queueOutcomes(_ outcomes: [PaymentOutcome]) {
        state.withLock { $0.outcomes.append(contentsOf: outcomes) }
    }

    /// Drops the outcomes no payment sheet has used yet.
    public func discardQueuedOutcomes() {
        state.withLock { $0.outcomes = [] }
    }

    /// Called before every finish, with the transaction id.
    public func onFinish(_ hook: @escaping FinishHook) {
        state.withLock { $0.finishHook = hook }
    }

    /// How often the app finished this transaction.
    public func finishCount(of transactionID: String) -> Int {
        state.withLock { $0.finishCount[transactionID, default: 0] }
    }

    /// Every charge on this device with its payment's label, oldest first.
    public var charges: [Charge] {
        state.withLock { $0.charged }
    }

    /// The transactions charged for payments labelled `label`, oldest first.
    public func chargedTransactionIDs(labelled label: String) -> [String] {
        state.withLock { $0.charged.filter { $0.label == label }.map(\.transactionID) }
    }

    /// Purchased transactions StoreKit still holds for the app, oldest first.
    public var unfinishedTransactionIDs: [String] {
        state.withLock { $0.unfinished.compactMap(\.transactionID) }
    }

    /// A parent approves every deferred payment: Apple charges now and the running app hears about it.
    @discardableResult
    public func approveAskToBuy() async throws(SimulatorError) -> [String] {
        let waiting = state.withLock { state in
            defer { state.deferred = [] }
            return state.deferred
        }
        var charged: [String] = []
        for item in waiting {
            let entry = try await charge(item.entry.productID, quantity: item.entry.quantity,
                                         username: item.entry.applicationUsername, tokenForApple: item.tokenForApple,
                                         label: item.label)
            charged.append(entry.transactionID ?? "")
            deliverPurchased(entry)
            yieldToListeners(entry)
        }
        return charged
    }

    // MARK: StoreKit 1

    /// Registers a payment-queue observer; StoreKit redelivers every unfinished transaction to it.
    public func addObserver(_ process: SimulatedProcess, _ observer: @escaping Observer) -> Int? {
        let registered: (id: Int, queue: [DeviceTransaction])? = state.withLock { state in
            guard state.running, state.generation == process.generation else { return nil }
            state.nextID += 1
            state.observers[state.nextID] = observer
            return (state.nextID, state.unfinished + state.failed)
        }
        guard let registered else { return nil }
        let redelivered = registered.queue.map { callbackView(of: $0) }
        if !redelivered.isEmpty { call(process, observer, redelivered) }
        return registered.id
    }

    public func removeObserver(_ process: SimulatedProcess, id: Int) {
        state.withLock { state in
            guard state.generation == process.generation else { return }
            state.observers[id] = nil
        }
    }

    /// `SKPaymentQueue.add(_:)`: reports `purchasing`, then the outcome. A product with an unfinished purchase only
    /// ever reports `purchasing`, and nothing is charged. `label` names the payment in `charges`.
    public func addPayment(_ process: SimulatedProcess, productID: String, quantity: Int, applicationUsername: String?,
                           label: String? = SimulatedDevice.paymentLabel) async {
        guard isRunning(process) else { return }
        let purchasing = DeviceTransaction(queueID: nextLocalID(), state: .purchasing, productID: productID,
                                           quantity: quantity, applicationUsername: applicationUsername)
        deliver([purchasing])
        let blocked = state.withLock { state in
            state.unfinished.contains { $0.productID == productID && catalog[productID]?.kind != .nonConsumable }
        }
        if blocked { return }
        guard catalog[productID] != nil else {
            return fail(purchasing, .productUnavailable)
        }
        switch await paymentSheet() {
        case .pay, .payAfter:
            let token = applicationUsername.flatMap(UUID.init(uuidString:)).map(\.uuidString)
            guard let entry = try? await charge(productID, quantity: quantity, username: applicationUsername,
                                                tokenForApple: token, label: label)
            else { return fail(purchasing, .unknown) }
            deliverPurchased(entry)
        case .cancel:
            fail(purchasing, .cancelled)
        case .fail(let failure):
            fail(purchasing, failure)
        case .askToBuy:
            var deferred = purchasing
            deferred.state = .deferred
            let token = applicationUsername.flatMap(UUID.init(uuidString:)).map(\.uuidString)
            state.withLock { $0.deferred.append(Deferred(entry: deferred, tokenForApple: token, label: label)) }
            deliver([deferred])
        }
    }

    /// `SKPaymentQueue.transactions`: what the queue holds now.
    public func queueTransactions(_ process: SimulatedProcess) -> [DeviceTransaction] {
        let queue = state.withLock { state -> [DeviceTransaction] in
            guard state.running, state.generation == process.generation else { return [] }
            return state.unfinished + state.failed + state.deferred.map(\.entry)
        }
        return queue.map { callbackView(of: $0) }
    }

    /// `finishTransaction` (StoreKit 1) or `Transaction.finish()` (StoreKit 2). Ignored from a killed process.
    public func finishTransaction(_ process: SimulatedProcess, queueID: String) async {
        guard isRunning(process) else { return }
        let hook = state.withLock { $0.finishHook }
        let isPurchase = state.withLock { state in state.unfinished.contains { $0.queueID == queueID } }
        if isPurchase, let hook { await hook(queueID) }
        guard isRunning(process) else { return }
        let removed = state.withLock { state -> DeviceTransaction? in
            if let index = state.failed.firstIndex(where: { $0.queueID == queueID }) {
                return state.failed.remove(at: index)
            }
            guard let index = state.unfinished.firstIndex(where: { $0.queueID == queueID }) else { return nil }
            state.finishCount[queueID, default: 0] += 1
            return state.unfinished.remove(at: index)
        }
        guard let transactionID = removed?.transactionID else { return }
        try? await store.finish(transactionID: transactionID)
        await writeReceipt()
    }

    /// `SKReceiptRefreshRequest`: the device fetches its receipt from the App Store.
    public func refreshReceipt(_ process: SimulatedProcess) async throws(SimulatorError) {
        guard isRunning(process) else { throw SimulatorError(.conflict, "the app is not running") }
        state.withLock { $0.receiptPresent = true }
        await writeReceipt()
    }

    // MARK: StoreKit 2

    /// `Product.purchase(options:)`. `label` names the payment in `charges`.
    public func purchase(_ process: SimulatedProcess, productID: String, quantity: Int, appAccountToken: UUID?,
                         label: String? = SimulatedDevice.paymentLabel) async -> PurchaseResult {
        guard isRunning(process) else { return .failed(.unknown) }
        guard catalog[productID] != nil else { return .failed(.productUnavailable) }
        switch await paymentSheet() {
        case .pay, .payAfter:
            guard let entry = try? await charge(productID, quantity: quantity, username: nil,
                                                tokenForApple: appAccountToken?.uuidString, label: label)
            else { return .failed(.unknown) }
            if configuration.duplicateCallbacks { yieldToListeners(entry) }
            return .purchased(entry)
        case .cancel:
            return .userCancelled
        case .fail(let failure):
            return .failed(failure)
        case .askToBuy:
            let entry = DeviceTransaction(queueID: nextLocalID(), state: .deferred, productID: productID,
                                          quantity: quantity)
            state.withLock {
                $0.deferred.append(Deferred(entry: entry, tokenForApple: appAccountToken?.uuidString, label: label))
            }
            return .pending
        }
    }

    /// `Transaction.updates`: unfinished transactions first, then purchases made outside the app (Ask to Buy
    /// approvals). Ends when the process is killed.
    public func transactionUpdates(_ process: SimulatedProcess) -> AsyncStream<DeviceTransaction> {
        let (stream, continuation) = AsyncStream.makeStream(of: DeviceTransaction.self)
        let backlog: [DeviceTransaction]? = state.withLock { state in
            guard state.running, state.generation == process.generation else { return nil }
            state.nextID += 1
            state.listeners[state.nextID] = continuation
            return state.unfinished
        }
        guard let backlog else {
            continuation.finish()
            return stream
        }
        for entry in backlog {
            continuation.yield(entry)
            if configuration.duplicateCallbacks { continuation.yield(entry) }
        }
        return stream
    }

    /// `Transaction.unfinished`.
    public func unfinishedTransactions(_ process: SimulatedProcess) -> [DeviceTransaction] {
        state.withLock { state in
            guard state.running, state.generation == process.generation else { return [] }
            return state.unfinished
        }
    }

    /// `Product.products(for:)` / `SKProductsRequest`: the known ones among `ids`.
    public func products(_ ids: some Sequence<String>) -> [DeviceProduct] {
        ids.compactMap { catalog[$0] }
    }

    // MARK: Inside

    private func nextLocalID() -> String {
        state.withLock { state in
            state.nextID += 1
            return "local-\(id)-\(state.nextID)"
        }
    }

    /// What the user does with the payment sheet; a slow sheet (`payAfter`) stays open that long, then pays.
    private func paymentSheet() async -> PaymentOutcome {
        let outcome = nextOutcome()
        guard case .payAfter(let delay) = outcome else { return outcome }
        try? await Task.sleep(for: delay)
        return .pay
    }

    private func nextOutcome() -> PaymentOutcome {
        state.withLock { state in
            if !state.outcomes.isEmpty { return state.outcomes.removeFirst() }
            return configuration.askToBuy ? .askToBuy : .pay
        }
    }

    /// Whether this purchase loses its token, drawn once per purchase.
    private func losesTokenEverywhere() -> Bool {
        guard case .everywhere(let rate) = configuration.lostApplicationUsername else { return false }
        return state.withLock { Double.random(in: 0..<1, using: &$0.random) < rate }
    }

    /// Apple charges the user; the purchase joins the device's queue and its receipt.
    private func charge(_ productID: String, quantity: Int, username: String?, tokenForApple: String?,
                        label: String?) async throws(SimulatorError) -> DeviceTransaction {
        let lost = losesTokenEverywhere()
        let kind = catalog[productID]?.kind ?? .consumable
        let (transaction, signed) = try await store.purchase(
            .init(productId: productID, quantity: quantity, appAccountToken: lost ? nil : tokenForApple,
                  environment: configuration.environment, type: kind.appleType, deviceId: id))
        let entry = DeviceTransaction(
            queueID: transaction.transactionId, state: .purchased, productID: productID, quantity: quantity,
            applicationUsername: lost ? nil : username, transactionID: transaction.transactionId,
            purchaseDate: transaction.purchaseDate.map(Date.init(appStoreMilliseconds:)), signedTransaction: signed,
            appAccountToken: transaction.appAccountToken.flatMap(UUID.init(uuidString:)))
        state.withLock { state in
            state.unfinished.append(entry)
            state.charged.append(Charge(transactionID: transaction.transactionId, label: label))
            state.receiptPresent = true
        }
        await writeReceipt()
        return entry
    }

    private func fail(_ entry: DeviceTransaction, _ failure: DeviceFailure) {
        var failed = entry
        failed.state = .failed
        failed.failure = failure
        state.withLock { $0.failed.append(failed) }
        deliver([failed])
    }

    private func deliverPurchased(_ entry: DeviceTransaction) {
        deliver([callbackView(of: entry)])
        if configuration.duplicateCallbacks { deliver([callbackView(of: entry)]) }
    }

    /// The entry as a StoreKit 1 callback shows it: `applicationUsername` may be missing.
    private func callbackView(of entry: DeviceTransaction) -> DeviceTransaction {
        guard case .onCallback(let rate) = configuration.lostApplicationUsername else { return entry }
        var view = entry
        if state.withLock({ Double.random(in: 0..<1, using: &$0.random) < rate }) { view.applicationUsername = nil }
        return view
    }

    private func deliver(_ entries: [DeviceTransaction]) {
        let targets = state.withLock { state -> (SimulatedProcess, [Observer])? in
            guard state.running else { return nil }
            return (SimulatedProcess(device: self, generation: state.generation), Array(state.observers.values))
        }
        guard let (process, observers) = targets else { return }
        for observer in observers { call(process, observer, entries) }
    }

    private func call(_ process: SimulatedProcess, _ observer: Observer, _ entries: [DeviceTransaction]) {
        SimulatedProcess.$current.withValue(process) { observer(entries) }
    }

    private func yieldToListeners(_ entry: DeviceTransaction) {
        let listeners = state.withLock { Array($0.listeners.values) }
        for listener in listeners { listener.yield(entry) }
    }

    private func writeReceipt() async {
        guard state.withLock({ $0.receiptPresent }),
            FileManager.default.fileExists(atPath: containerDirectory.path),
            let receipt = try? await store.receipt(deviceId: id)
        else { return }
        let directory = receiptURL.deletingLastPathComponent()
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try? Data(receipt.der).write(to: receiptURL, options: .atomic)
    }
}
