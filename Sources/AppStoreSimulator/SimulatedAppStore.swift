import AppStoreVerification
import Foundation
import PurserCore

/// The simulator's record of what "Apple" charged and refunded, and the signer of its transactions and
/// notifications. Purchases survive restarts (a JSON-lines journal in the data directory), so transaction ids
/// never repeat for one data directory.
public actor SimulatedAppStore {
    public struct Configuration: Sendable {
        /// Used when a purchase does not name a bundle id.
        public var defaultBundleID: String
        public var defaultEnvironment: AppStoreEnvironment
        /// Put in production notifications' `data.appAppleId`.
        public var appAppleID: Int64?
        public var storefront: String
        public var storefrontID: String
        /// Where purchases are journaled; `nil` keeps them in memory only.
        public var journalFile: URL?

        public init(
            defaultBundleID: String = "com.example.purser.demo", defaultEnvironment: AppStoreEnvironment = .sandbox,
            appAppleID: Int64? = nil, storefront: String = "USA", storefrontID: String = "143441", journalFile: URL? = nil
        ) {
            self.defaultBundleID = defaultBundleID
            self.defaultEnvironment = defaultEnvironment
            self.appAppleID = appAppleID
            self.storefront = storefront
            self.storefrontID = storefrontID
            self.journalFile = journalFile
        }
    }

    /// A purchase to make, as the control API takes it.
    public struct PurchaseRequest: Codable, Sendable {
        public var bundleId: String?
        public var productId: String
        public var quantity: Int?
        public var appAccountToken: String?
        public var environment: AppStoreEnvironment?
        /// Apple's spelling: "Consumable" (default) or "Non-Consumable".
        public var type: String?
        /// Milliunits, e.g. 990 for 0.99.
        public var price: Int64?
        public var currency: String?

        public init(productId: String, bundleId: String? = nil, quantity: Int? = nil, appAccountToken: String? = nil,
                    environment: AppStoreEnvironment? = nil, type: String? = nil) {
            self.productId = productId
            self.bundleId = bundleId
            self.quantity = quantity
            self.appAccountToken = appAccountToken
            self.environment = environment
            self.type = type
        }
    }

    nonisolated public let signer: JWSSigner
    nonisolated public let configuration: Configuration
    private let now: @Sendable () -> Date
    private var records: [String: JWSTransaction] = [:]
    private var order: [String] = []
    private var journal: FileHandle?

    /// The first transaction id; ids count up from here, as Apple's 16-digit ids do.
    static let firstTransactionID: Int64 = 2_000_000_000_000_001

    public init(signer: JWSSigner, configuration: Configuration = .init(), now: @escaping @Sendable () -> Date = { Date() }) throws {
        self.signer = signer
        self.configuration = configuration
        self.now = now
        if let file = configuration.journalFile {
            if FileManager.default.fileExists(atPath: file.path) {
                for line in try String(contentsOf: file, encoding: .utf8).split(separator: "\n") {
                    let record = try JSONDecoder().decode(JWSTransaction.self, from: Data(line.utf8))
                    if records.updateValue(record, forKey: record.transactionId) == nil { order.append(record.transactionId) }
                }
            } else {
                try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
                _ = FileManager.default.createFile(atPath: file.path, contents: nil)
            }
            journal = try FileHandle(forWritingTo: file)
            try journal?.seekToEnd()
        }
    }

    /// Charges the (simulated) user and returns the signed transaction.
    public func purchase(_ request: PurchaseRequest) throws(SimulatorError) -> (transaction: JWSTransaction, signed: String) {
        guard !request.productId.isEmpty else { throw SimulatorError(.invalidRequest, "productId is required") }
        let quantity = request.quantity ?? 1
        guard (1...10).contains(quantity) else { throw SimulatorError(.invalidRequest, "quantity must be 1...10") }
        if let token = request.appAccountToken, UUID(uuidString: token) == nil {
            throw SimulatorError(.invalidRequest, "appAccountToken must be a UUID, as StoreKit requires")
        }
        let at = now().appStoreMilliseconds
        let id = String(Self.firstTransactionID + Int64(order.count))
        var transaction = JWSTransaction(transactionId: id, bundleId: request.bundleId ?? configuration.defaultBundleID,
                                         productId: request.productId)
        transaction.originalTransactionId = id
        transaction.purchaseDate = at
        transaction.originalPurchaseDate = at
        transaction.quantity = quantity
        transaction.type = request.type ?? "Consumable"
        transaction.appAccountToken = request.appAccountToken?.lowercased()
        transaction.inAppOwnershipType = "PURCHASED"
        transaction.signedDate = at
        transaction.environment = (request.environment ?? configuration.defaultEnvironment).rawValue
        transaction.transactionReason = "PURCHASE"
        transaction.storefront = configuration.storefront
        transaction.storefrontId = configuration.storefrontID
        transaction.price = request.price ?? 990 * Int64(quantity)
        transaction.currency = request.currency ?? "USD"
        try store(transaction)
        return (transaction, try sign(transaction))
    }

    /// Refunds a transaction: its record gains `revocationDate`, and a signed REFUND notification is returned.
    public func refund(transactionID: String, reason: Int = 0) throws(SimulatorError) -> (transaction: JWSTransaction, signed: String, notification: String) {
        guard var transaction = records[transactionID] else {
            throw SimulatorError(.notFound, "no transaction \(transactionID)")
        }
        guard transaction.revocationDate == nil else {
            throw SimulatorError(.conflict, "transaction \(transactionID) is already refunded")
        }
        let at = now().appStoreMilliseconds
        transaction.revocationDate = at
        transaction.revocationReason = reason
        transaction.signedDate = at
        try store(transaction)
        let signed = try sign(transaction)
        return (transaction, signed, try notification(type: "REFUND", for: transaction, signedTransaction: signed))
    }

    /// A signed Notifications V2 payload about `transaction`.
    public func notification(type: String, subtype: String? = nil, for transaction: JWSTransaction, signedTransaction: String) throws(SimulatorError) -> String {
        let environment = transaction.environment ?? configuration.defaultEnvironment.rawValue
        let data = JWSNotification.NotificationData(
            appAppleId: environment == AppStoreEnvironment.production.rawValue ? configuration.appAppleID : nil,
            bundleId: transaction.bundleId, environment: environment, signedTransactionInfo: signedTransaction)
        let payload = JWSNotification(notificationType: type, subtype: subtype, notificationUUID: UUID().uuidString.lowercased(),
                                      data: data, signedDate: now().appStoreMilliseconds)
        return try sign(payload)
    }

    /// Every transaction, oldest first.
    public func transactions() -> [JWSTransaction] { order.compactMap { records[$0] } }

    /// One transaction and its current signed form.
    public func transaction(_ id: String) throws(SimulatorError) -> (transaction: JWSTransaction, signed: String) {
        guard let transaction = records[id] else { throw SimulatorError(.notFound, "no transaction \(id)") }
        return (transaction, try sign(transaction))
    }

    private func sign(_ payload: some Encodable) throws(SimulatorError) -> String {
        do { return try signer.sign(payload) } catch { throw SimulatorError(.internal, "signing failed: \(error)") }
    }

    private func store(_ transaction: JWSTransaction) throws(SimulatorError) {
        if let journal {
            do {
                var line = try JSONEncoder().encode(transaction)
                line.append(UInt8(ascii: "\n"))
                try journal.write(contentsOf: line)
            } catch {
                throw SimulatorError(.internal, "cannot journal the purchase: \(error)")
            }
        }
        if records.updateValue(transaction, forKey: transaction.transactionId) == nil { order.append(transaction.transactionId) }
    }
}
