import Foundation

/// An App Store Server Notification as the ledger keeps it: recorded once by `notificationUUID` before Purser
/// answers Apple, then marked processed with what it did.
public struct NotificationRecord: Hashable, Sendable {
    public var uuid: String
    public var type: String
    public var subtype: String?
    public var transactionID: String?
    public var environment: String?
    public var signedDate: Date?
    public var receivedAt: Date
    public var processedAt: Date?
    public var outcome: String?

    public init(
        uuid: String, type: String, subtype: String?, transactionID: String?, environment: String?,
        signedDate: Date?, receivedAt: Date, processedAt: Date? = nil, outcome: String? = nil
    ) {
        self.uuid = uuid
        self.type = type
        self.subtype = subtype
        self.transactionID = transactionID
        self.environment = environment
        self.signedDate = signedDate
        self.receivedAt = receivedAt
        self.processedAt = processedAt
        self.outcome = outcome
    }
}
