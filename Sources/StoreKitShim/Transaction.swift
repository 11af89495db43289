import AppStoreSimulator
import Foundation

/// StoreKit 2's transaction, for the members Purser's adapter uses.
public struct Transaction: Sendable, Hashable, Identifiable {
    public let id: UInt64
    public let productID: String
    public let purchaseDate: Date
    public let purchasedQuantity: Int
    public let appAccountToken: UUID?
    let jws: String
    let process: SimulatedProcess

    init(_ entry: DeviceTransaction, process: SimulatedProcess) {
        id = UInt64(entry.transactionID ?? "") ?? 0
        productID = entry.productID
        purchaseDate = entry.purchaseDate ?? Date(timeIntervalSince1970: 0)
        purchasedQuantity = entry.quantity
        appAccountToken = entry.appAccountToken
        jws = entry.signedTransaction ?? ""
        self.process = process
    }

    public static func == (lhs: Transaction, rhs: Transaction) -> Bool { lhs.id == rhs.id && lhs.jws == rhs.jws }
    public func hash(into hasher: inout Hasher) { hasher.combine(id) }

    /// Tells the device the app delivered the purchase.
    public func finish() async {
        await process.device.finishTransaction(process, queueID: String(id))
    }

    /// Unfinished transactions first, then purchases made outside the app, as long as the app runs.
    public static var updates: Transactions { Transactions(source: .updates, process: SimulatedProcess.current) }

    /// The latest transaction of every non-consumable the account owns (not refunded), finished or not.
    public static var currentEntitlements: Transactions {
        Transactions(source: .currentEntitlements, process: SimulatedProcess.current)
    }

    /// The transactions the app has not finished.
    public static var unfinished: Transactions { Transactions(source: .unfinished, process: SimulatedProcess.current) }
}
