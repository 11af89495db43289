/// Every status Apple's `verifyReceipt` answers, with its meaning and what Purser does about it — the one place
/// where this table lives.
public struct VerifyReceiptStatus: Hashable, Sendable, CustomStringConvertible {
    /// What a status means for the caller.
    public enum Disposition: Hashable, Sendable {
        /// The receipt is valid; its contents can be credited.
        case valid
        /// A sandbox receipt reached the production endpoint: ask the sandbox endpoint.
        case tryTheSandbox
        /// A production receipt reached the sandbox endpoint: ask the production endpoint.
        case tryProduction
        /// Retry once at once; if it repeats, the receipt is rejected.
        case retryOnceThenReject
        /// Apple cannot answer now: nothing is decided, the client keeps the transaction and retries later.
        case retryLater
        /// The receipt is definitively not acceptable.
        case rejected
    }

    public let code: Int
    public let meaning: String
    public let disposition: Disposition

    public init(code: Int) {
        self.code = code
        switch code {
        case 0: (meaning, disposition) = ("the receipt is valid", .valid)
        case 21000: (meaning, disposition) = ("the request was not an HTTP POST or was malformed", .rejected)
        case 21001: (meaning, disposition) = ("status no longer sent by Apple", .rejected)
        case 21002:
            (meaning, disposition) = (
                "the receipt data is malformed, or Apple had a temporary issue", .retryOnceThenReject
            )
        case 21003: (meaning, disposition) = ("the receipt could not be authenticated", .rejected)
        case 21004:
            (meaning, disposition) = (
                "the shared secret does not match the account's: fix the configuration", .retryLater
            )
        case 21005: (meaning, disposition) = ("the receipt server is temporarily unavailable", .retryLater)
        case 21006: (meaning, disposition) = ("valid, but the subscription has expired", .valid)
        case 21007: (meaning, disposition) = ("a sandbox receipt was sent to the production endpoint", .tryTheSandbox)
        case 21008: (meaning, disposition) = ("a production receipt was sent to the sandbox endpoint", .tryProduction)
        case 21009: (meaning, disposition) = ("internal data access error at Apple", .retryLater)
        case 21010: (meaning, disposition) = ("the user account cannot be found or was deleted", .rejected)
        case 21100...21199: (meaning, disposition) = ("internal data access error at Apple", .retryLater)
        default: (meaning, disposition) = ("unknown status", .retryLater)
        }
    }

    public var description: String { "\(code) (\(meaning))" }
}
