import AppStoreSimulator
import Foundation
import Purser
import PurserCore

/// Everything one purchase meets, drawn from the seed before the run starts.
public struct PlannedPurchase: Sendable, Hashable {
    public var index: Int
    public var device: Int
    /// Who is signed in and taps "buy".
    public var user: String
    public var productID: String
    public var crashAt: PurchaseStep?
    /// Submissions that never reach the server, then submissions whose answer is lost.
    public var requestsLost: Int
    public var responsesLost: Int
    public var reinstall: Bool
    public var rebuy: Bool
    public var verifyReceiptFault: VerifyReceiptFault?
    public var notificationsLost: Int
    public var refund: Bool
    /// With `refund`: the shares (milliunits of the purchase) of Apple's partial refunds, one after the other;
    /// empty for one whole refund.
    public var refundShares: [Int] = []
    /// Another account that submits this device's latest purchase.
    public var replayBy: String?
    public var forgery: Bool
    /// The payment sheet outlasts the app's wait (StoreKit 1 devices only).
    public var slowPayment = false
    /// A server replica is killed while this purchase runs: which one (modulo the replica count), and how long after
    /// the purchase starts.
    public var serverKill: ServerKill?
    /// The PostgreSQL primary dies this many milliseconds after the purchase starts, and its standby is promoted.
    public var databaseFailoverAfterMilliseconds: Int?
    /// What the game backend's next webhook posts meet, from this purchase on.
    public var receiverFault: GameBackend.Fault?
    /// What the spending game backend does with the buyer's gold once this purchase is through.
    public var wallet: PlannedWalletOperation?
    /// The fault families this purchase meets (device families included).
    public var families: Set<FaultFamily>

    /// A replica killed during a purchase: which (modulo the number of replicas) and how many milliseconds after the
    /// purchase starts, so the kill lands while its requests are on their way.
    public struct ServerKill: Sendable, Hashable {
        public var replica: Int
        public var afterMilliseconds: Int
    }

    /// The id of the transaction this purchase's forgery claims (Apple's ids start with 2; these with 9).
    public var forgedTransactionID: String { "9" + String(format: "%015d", index) }
}

extension PlannedPurchase {
    /// Apple's refunds of `transactionID` as planned: one whole refund, or the partial ones (`REFUND_PRORATED`), each
    /// signed into the transaction and a REFUND notification.
    func refund(_ transactionID: String, at appStore: SimulatedAppStore) async {
        guard refund else { return }
        if refundShares.isEmpty { _ = try? await appStore.refund(transactionID: transactionID) }
        for share in refundShares {
            _ = try? await appStore.refund(transactionID: transactionID, type: .refundProrated, percentage: share)
        }
    }
}
