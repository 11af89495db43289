import AppStoreVerification
import Foundation
import PurserCore
import Synchronization

// Apple charging the user: the purchase joins StoreKit's queue and the receipt, and the device remembers which
// labelled payment each charge was for.
extension SimulatedDevice {
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

    /// Every charge on this device with its payment's label, oldest first.
    public var charges: [Charge] {
        state.withLock { $0.charged }
    }

    /// The transactions charged for payments labelled `label`, oldest first.
    public func chargedTransactionIDs(labelled label: String) -> [String] {
        state.withLock { $0.charged.filter { $0.label == label }.map(\.transactionID) }
    }

    /// Apple charges the user; the purchase joins the device's queue and the App Store's receipt for the device. The
    /// receipt file is rewritten (and signed anew) for a StoreKit 1 payment (`updatesReceipt`); a StoreKit 2 app
    /// never reads it, and the file catches up at the next StoreKit 1 payment or receipt refresh.
    func charge(
        _ productID: String, quantity: Int, username: String?, tokenForApple: String?,
        label: String?, updatesReceipt: Bool = true
    ) async throws(SimulatorError) -> DeviceTransaction {
        let lost = losesTokenEverywhere()
        let kind = catalog[productID]?.kind ?? .consumable
        let (transaction, signed) = try await store.purchase(
            .init(
                productId: productID, bundleId: configuration.bundleID, quantity: quantity,
                appAccountToken: lost ? nil : tokenForApple, environment: configuration.environment,
                type: kind.appleType, deviceId: id))
        let entry = DeviceTransaction(
            queueID: transaction.transactionId, state: .purchased, productID: productID, quantity: quantity,
            applicationUsername: lost ? nil : username, transactionID: transaction.transactionId,
            purchaseDate: transaction.purchaseDate.map(Date.init(appStoreMilliseconds:)), signedTransaction: signed,
            appAccountToken: transaction.appAccountToken.flatMap(UUID.init(uuidString:)))
        state.withLock { state in
            state.unfinished.append(entry)
            state.paidGeneration[entry.queueID] = state.generation
            state.charged.append(Charge(transactionID: transaction.transactionId, label: label))
            state.receiptPresent = true
        }
        if updatesReceipt { await writeReceipt() }
        return entry
    }

    /// Whether this purchase loses its token, drawn once per charge attempt.
    private func losesTokenEverywhere() -> Bool {
        guard case .everywhere(let rate) = configuration.lostApplicationUsername else { return false }
        let attempt = state.withLock { state in
            defer { state.chargeAttempts += 1 }
            return state.chargeAttempts
        }
        return draw("charge:\(attempt)") < rate
    }
}
