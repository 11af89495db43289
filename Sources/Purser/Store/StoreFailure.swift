/// A StoreKit error, sorted into the reasons Purser explains to users.
public struct StoreFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// The reason, as users are told it.
    public var reason: PurchaseFailureReason
    /// StoreKit's own description, for logs.
    public var detail: String

    /// A failure for `reason`, with StoreKit's description.
    public init(_ reason: PurchaseFailureReason, detail: String = "") {
        self.reason = reason
        self.detail = detail
    }

    /// The reason's code and StoreKit's description.
    public var description: String { detail.isEmpty ? reason.code : "\(reason.code): \(detail)" }
}
