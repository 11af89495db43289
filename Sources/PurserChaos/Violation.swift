/// A broken invariant, with the transaction it is about.
public struct Violation: Sendable, Hashable, Codable, CustomStringConvertible {
    public enum Kind: String, Sendable, Codable, CaseIterable, Hashable {
        /// Charged, not refunded, and not credited after healing (invariant 1).
        case lost
        /// Credited more than once (invariant 2).
        case doubled
        /// Credited to an account other than the buyer's (invariant 3).
        case misattributed
        /// Credited without a charge: forged, refunded and kept, or unknown to Apple (invariant 4).
        case creditedWithoutCharge = "credited-without-charge"
        /// Finished on the device before the server recorded a decision (invariant 5).
        case finishedBeforeDecision = "finished-before-decision"
        /// After healing, the game backend fed by webhooks holds another balance than the ledger (an event lost,
        /// or applied twice).
        case gameBackendDiffers = "game-backend-differs"
        /// A balance is not what its history adds up to, or not credits − refunds − what the spending game backend
        /// was told it took (deposits, spends and captures through the wallet API).
        case walletBalanceDiffers = "wallet-balance-differs"
        /// A wallet id (a spend, a capture) applied more than once.
        case appliedTwice = "applied-twice"
        /// A spend took a balance below 0.
        case belowFloor = "below-floor"
        /// The spending game backend got no answer to a request even after the faults stopped.
        case walletUnanswered = "wallet-unanswered"
        /// `purser ledger check` found a rule between the ledger's tables broken (`LedgerIntegrity`).
        case ledgerCheck = "ledger-check"
        /// A studio run (`--apps`): one app's purchase in another app's ledger, or its event at another app's game
        /// backend.
        case crossApp = "cross-app"
        /// One `webhook-id` reached the game backend with two different bodies (two events, one id): a receiver that
        /// applies each id once dropped one of them.
        case webhookIDReused = "webhook-id-reused"
        /// Apple's App Store Server API refused a server's calls for their token (HTTP 401), which no fault family
        /// does: a server calls Apple with a key the simulator does not hold.
        case appleRefusedCall = "apple-refused-call"
    }

    public var kind: Kind
    public var transactionID: String
    public var detail: String
    /// The planned purchase it comes from, when known.
    public var purchase: Int?

    public var description: String {
        "\(kind.rawValue) \(transactionID)\(purchase.map { " (purchase #\($0))" } ?? ""): \(detail)"
    }
}
