/// A StoreKit error, sorted into the reasons Purser explains to users.
public struct StoreFailure: Error, Sendable, Hashable, CustomStringConvertible {
    public var reason: PurchaseFailureReason
    /// StoreKit's own description, for logs.
    public var detail: String

    public init(_ reason: PurchaseFailureReason, detail: String = "") {
        self.reason = reason
        self.detail = detail
    }

    public var description: String { detail.isEmpty ? reason.code : "\(reason.code): \(detail)" }
}
