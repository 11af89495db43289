import Foundation

extension Date {
    /// Milliseconds since 1970 UTC, as the ledger stores times.
    public var millis: Int64 { Int64((timeIntervalSince1970 * 1000).rounded()) }

    /// The date `millis` milliseconds after 1970 UTC: a time as the ledger stores it, or one cut to milliseconds.
    public init(millis: some BinaryInteger) { self.init(timeIntervalSince1970: Double(millis) / 1000) }
}
