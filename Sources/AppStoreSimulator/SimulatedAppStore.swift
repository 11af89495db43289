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
        /// The only products sold, with their types and prices (a `.storekit` file); `nil` sells any product id.
        public var catalog: StoreKitConfiguration?
        /// Apple's type (`Consumable`, `Non-Consumable`) of products sold without a `catalog` entry, by product id:
        /// the simulator inside `purser serve` signs each product of Purser's catalog with its type. Others are
        /// `Consumable`.
        public var productTypes: [String: String] = [:]

        public init(
            defaultBundleID: String = "com.example.purser.demo", defaultEnvironment: AppStoreEnvironment = .sandbox,
            appAppleID: Int64? = nil, storefront: String = "USA", storefrontID: String = "143441",
            journalFile: URL? = nil, catalog: StoreKitConfiguration? = nil
        ) {
            self.defaultBundleID = defaultBundleID
            self.defaultEnvironment = defaultEnvironment
            self.appAppleID = appAppleID
            self.storefront = storefront
            self.storefrontID = storefrontID
            self.journalFile = journalFile
            self.catalog = catalog
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
        /// The simulated device that pays; its app receipt will carry the purchase. Default `device-1`.
        public var deviceId: String?

        public init(
            productId: String, bundleId: String? = nil, quantity: Int? = nil, appAccountToken: String? = nil,
            environment: AppStoreEnvironment? = nil, type: String? = nil, deviceId: String? = nil
        ) {
            self.deviceId = deviceId
            self.productId = productId
            self.bundleId = bundleId
            self.quantity = quantity
            self.appAccountToken = appAccountToken
            self.environment = environment
            self.type = type
        }
    }

    nonisolated public let signer: JWSSigner
    /// What developers' servers finished (Finish Transaction); devices drop these from their queues.
    nonisolated public let finishedByServer = ServerFinishedTransactions()
    /// The RSA chain that signs the devices' app receipts.
    nonisolated public var receiptAuthority: ReceiptCertificateAuthority { receiptIssuer.authority }
    nonisolated public let configuration: Configuration
    let now: @Sendable () -> Date
    /// Every purchase, oldest first (`PurchaseRecord`).
    var records: [PurchaseRecord] = []
    /// Each purchase's place in `records`, by transaction id.
    var positions: [String: Int] = [:]
    /// Each device's purchases as places in `records`, oldest first: receipts and a customer's history are read per
    /// device, so they must not scan every purchase.
    var orderByDevice: [String: [Int]] = [:]
    /// What each device's receipt carries: its unfinished consumables and every other purchase, oldest first.
    var receiptIDsByDevice: [String: [String]] = [:]
    /// The receipt each device holds now, kept until what it carries changes (`receipt(deviceId:)`).
    var receiptsByDevice: [String: IssuedReceipt] = [:]
    private var journal: FileHandle?
    /// Notifications V2 sent or pending, oldest first.
    var notificationLog = ChunkedLog<LoggedNotification>()
    /// Indices into `notificationLog` not delivered yet, oldest first (delivery never scans the whole log).
    var undeliveredNotifications: [Int] = []
    /// Notifications a `deliverDueNotifications` call is sending now; a concurrent call leaves them alone.
    var notificationsInFlight: Set<Int> = []
    /// Where notifications go, and how; `nil` keeps them pending.
    var notificationTarget: (url: URL, transport: any AppStoreHTTPTransport)?
    var notificationSchedule = NotificationRetrySchedule()
    /// Delivery attempts to lose on purpose (notification loss), and whether delivery is paused.
    var notificationsToLose = 0
    var notificationsPaused = false
    /// Faults the next `verifyReceipt` calls answer with, first in first out.
    var verifyReceiptFaults: [VerifyReceiptFault] = []
    nonisolated let receiptIssuer: AppReceiptIssuer

    /// The first transaction id; ids count up from here, as Apple's 16-digit ids do.
    static let firstTransactionID: Int64 = 2_000_000_000_000_001

    /// - Parameter receiptAuthority: the RSA chain that signs app receipts; by default one made once per process.
    public init(
        signer: JWSSigner, receiptAuthority: ReceiptCertificateAuthority = .ephemeral,
        configuration: Configuration = .init(), now: @escaping @Sendable () -> Date = { Date() }
    ) throws {
        self.signer = signer
        self.configuration = configuration
        self.now = now
        self.receiptIssuer = AppReceiptIssuer(authority: receiptAuthority)
        if let file = configuration.journalFile {
            if FileManager.default.fileExists(atPath: file.path) {
                for line in try String(contentsOf: file, encoding: .utf8).split(separator: "\n") {
                    let record = try JSONDecoder().decode(SimulatedPurchase.self, from: Data(line.utf8))
                    let id = record.transaction.transactionId
                    if let position = positions[id] {
                        records[position] = PurchaseRecord(record, sharing: records[position].state)
                    } else {
                        positions[id] = records.count
                        records.append(PurchaseRecord(record, sharing: nil))
                    }
                }
            } else {
                try FileManager.default.createDirectory(
                    at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
                _ = FileManager.default.createFile(atPath: file.path, contents: nil)
            }
            for (position, record) in records.enumerated() {
                orderByDevice[record.deviceId, default: []].append(position)
                if Self.staysInReceipt(finished: record.finished, type: record.transaction.type) {
                    receiptIDsByDevice[record.deviceId, default: []].append(record.transaction.transactionId)
                }
            }
            journal = try FileHandle(forWritingTo: file)
            try journal?.seekToEnd()
        }
    }

    /// Charges the (simulated) user and returns the signed transaction.
    public func purchase(_ request: PurchaseRequest) throws(SimulatorError) -> (
        transaction: JWSTransaction, signed: String
    ) {
        guard !request.productId.isEmpty else { throw SimulatorError(.invalidRequest, "productId is required") }
        let quantity = request.quantity ?? 1
        guard (1...10).contains(quantity) else { throw SimulatorError(.invalidRequest, "quantity must be 1...10") }
        if let token = request.appAccountToken, UUID(uuidString: token) == nil {
            throw SimulatorError(.invalidRequest, "appAccountToken must be a UUID, as StoreKit requires")
        }
        let at = now().appStoreMilliseconds
        let id = String(Self.firstTransactionID + Int64(records.count))
        var transaction = JWSTransaction(
            transactionId: id, bundleId: request.bundleId ?? configuration.defaultBundleID,
            productId: request.productId)
        transaction.originalTransactionId = id
        transaction.purchaseDate = at
        transaction.originalPurchaseDate = at
        transaction.quantity = quantity
        let listed = try listedProduct(request.productId)
        transaction.type =
            request.type ?? listed?.kind.appleType ?? configuration.productTypes[request.productId] ?? "Consumable"
        transaction.appAccountToken = request.appAccountToken?.lowercased()
        transaction.inAppOwnershipType = "PURCHASED"
        transaction.signedDate = at
        transaction.environment = (request.environment ?? configuration.defaultEnvironment).rawValue
        transaction.transactionReason = "PURCHASE"
        transaction.storefront = configuration.storefront
        transaction.storefrontId = configuration.storefrontID
        transaction.price = request.price ?? (listed?.priceMilliunits ?? 990) * Int64(quantity)
        transaction.currency = request.currency ?? configuration.catalog?.currencyCode ?? "USD"
        transaction.appTransactionId = Self.appTransactionID(
            deviceId: request.deviceId ?? "device-1", bundleId: transaction.bundleId)
        try store(
            SimulatedPurchase(
                transaction: transaction, deviceId: request.deviceId ?? "device-1", finished: false,
                appleOrderId: Self.appleOrderID(sequence: records.count)))
        let signed = try sign(transaction)
        try enqueueNotification(type: "ONE_TIME_CHARGE", for: transaction, signedTransaction: signed)
        return (transaction, signed)
    }

    /// The device finished the transaction (StoreKit's `finishTransaction`): a consumable leaves its receipt.
    public func finish(transactionID: String) throws(SimulatorError) {
        guard var record = purchase(transactionID: transactionID) else {
            throw SimulatorError(.notFound, "no transaction \(transactionID)")
        }
        guard !record.finished else { return }
        record.finished = true
        try store(record)
    }

    /// Apple's Finish Transaction, called by a developer's server: the purchase is finished as if the app had
    /// finished it (a consumable leaves the device's receipt), and the device's StoreKit queue drops it.
    public func finishFromServer(transactionID: String) throws(SimulatorError) {
        try finish(transactionID: transactionID)
        finishedByServer.insert(transactionID)
    }

    /// A signed Notifications V2 payload about `transaction`, with its claims (a new UUID; queued for sending by
    /// `enqueueNotification`).
    func notification(type: String, subtype: String? = nil, for transaction: JWSTransaction, signedTransaction: String)
        throws(SimulatorError) -> (claims: JWSNotification, signed: String)
    {
        let environment = transaction.environment ?? configuration.defaultEnvironment.rawValue
        let data = JWSNotification.NotificationData(
            appAppleId: environment == AppStoreEnvironment.production.rawValue ? configuration.appAppleID : nil,
            bundleId: transaction.bundleId, environment: environment, signedTransactionInfo: signedTransaction)
        let payload = JWSNotification(
            notificationType: type, subtype: subtype, notificationUUID: UUID().uuidString.lowercased(),
            data: data, signedDate: now().appStoreMilliseconds)
        return (payload, try sign(payload))
    }

    /// Every purchase with what the simulator knows of it, oldest first.
    public func purchases() -> [SimulatedPurchase] { records.map(\.purchase) }

    /// The purchases paid on one device, oldest first, with each one's place among all purchases.
    public func purchases(deviceId: String) -> [(position: Int, purchase: SimulatedPurchase)] {
        (orderByDevice[deviceId] ?? []).map { position in (position, records[position].purchase) }
    }

    /// One purchase by transaction id.
    public func purchase(transactionID: String) -> SimulatedPurchase? { record(transactionID)?.purchase }

    /// One purchase's record by transaction id.
    func record(_ transactionID: String) -> PurchaseRecord? { positions[transactionID].map { records[$0] } }

    /// Apple's Set App Account Token: changes the token of every transaction with this original transaction id.
    public func setAppAccountToken(originalTransactionID: String, token: String) throws(SimulatorError) {
        let matching = records.map(\.purchase).filter {
            ($0.transaction.originalTransactionId ?? $0.transaction.transactionId) == originalTransactionID
        }
        guard !matching.isEmpty else { throw SimulatorError(.notFound, "no transaction \(originalTransactionID)") }
        for var record in matching {
            record.transaction.appAccountToken = token.lowercased()
            try store(record)
        }
    }

    /// Every transaction, oldest first.
    public func transactions() -> [JWSTransaction] { records.map(\.transaction) }

    /// One transaction and its current signed form.
    public func transaction(_ id: String) throws(SimulatorError) -> (transaction: JWSTransaction, signed: String) {
        guard let record = record(id) else { throw SimulatorError(.notFound, "no transaction \(id)") }
        return (record.transaction, try sign(record.transaction))
    }

    func sign(_ payload: some Encodable) throws(SimulatorError) -> String {
        do { return try signer.sign(payload) } catch { throw SimulatorError(.internal, "signing failed: \(error)") }
    }

    /// Journals a changed purchase record.
    func replace(_ record: SimulatedPurchase) throws(SimulatorError) { try store(record) }

    private func store(_ record: SimulatedPurchase) throws(SimulatorError) {
        if let journal {
            do {
                var line = try JSONEncoder().encode(record)
                line.append(UInt8(ascii: "\n"))
                try journal.write(contentsOf: line)
            } catch {
                throw SimulatorError(.internal, "cannot journal the purchase: \(error)")
            }
        }
        index(record)
    }

    private func index(_ record: SimulatedPurchase) {
        let id = record.transaction.transactionId
        if let position = positions[id] {
            records[position] = PurchaseRecord(record, sharing: records[position].state)
            if !Self.staysInReceipt(record) { receiptIDsByDevice[record.deviceId]?.removeAll { $0 == id } }
        } else {
            orderByDevice[record.deviceId, default: []].append(records.count)
            positions[id] = records.count
            records.append(PurchaseRecord(record, sharing: nil))
            if Self.staysInReceipt(record) { receiptIDsByDevice[record.deviceId, default: []].append(id) }
        }
    }

    /// Finished consumables drop out of the app receipt; everything else stays.
    static func staysInReceipt(_ record: SimulatedPurchase) -> Bool {
        staysInReceipt(finished: record.finished, type: record.transaction.type)
    }

    static func staysInReceipt(finished: Bool, type: String?) -> Bool { !finished || type != "Consumable" }

    /// The purchases a device's receipt carries now, oldest first.
    func receiptPurchases(deviceId: String) -> [SimulatedPurchase] {
        (receiptIDsByDevice[deviceId] ?? []).compactMap { purchase(transactionID: $0) }
    }
}
