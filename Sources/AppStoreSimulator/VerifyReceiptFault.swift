/// A fault the simulator's `verifyReceipt` answers with once, for tests of retries and fallbacks.
public enum VerifyReceiptFault: Codable, Sendable, Hashable {
    /// Answer HTTP 200 with this `status` (e.g. 21005, 21007, 21008, 21002).
    case status(Int)
    /// Answer this HTTP status (e.g. 503) with no body.
    case http(Int)
    /// Wait this long, then answer normally (past the caller's time-out, it looks like a time-out).
    case delay(seconds: Double)
}
