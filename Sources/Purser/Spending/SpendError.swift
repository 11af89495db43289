/// Why `spend` did not hand back a result. Only `unsettled` may have taken currency, and then only once: Purser
/// resends it with the same id until the server answers.
public enum SpendError: Error, Sendable, Hashable, CustomStringConvertible {
    /// `login` first: a wallet belongs to an account.
    case notSignedIn
    /// The coordinator was made without a `SpendJournal`, so a spend could not be made crash-safe; nothing was sent.
    case noJournal
    /// `amounts` is empty or holds an amount that is not positive; nothing was sent.
    case invalidAmounts
    /// The spend could not be journaled; nothing was sent.
    case journal(String)
    /// The server refused it and nothing was taken: `insufficient_balance`, `client_spend_disabled` (the server's
    /// `wallet.clientSpend` is off), `idempotency_conflict` (the id was used for another spend), …
    case refused(PurserAPIError)
    /// No answer (the network, the server busy): it may have applied. It stays journaled and is sent again with the
    /// same id at the next launch, login or recovery, where the server replays it rather than spend twice; the
    /// outcome arrives on `PurchaseCoordinator.spendOutcomes`.
    case unsettled(id: String, PurserAPIError)
    /// The app is shutting down (or was killed).
    case terminated

    /// A stable code for logs (`not_signed_in`, `no_spend_journal`, `insufficient_balance`, …).
    public var code: String {
        switch self {
        case .notSignedIn: "not_signed_in"
        case .noJournal: "no_spend_journal"
        case .invalidAmounts: "invalid_amounts"
        case .journal: "journal_unavailable"
        case .refused(let error): error.code
        case .unsettled: "spend_unsettled"
        case .terminated: "terminated"
        }
    }

    /// The code, with the underlying error's description where there is one.
    public var description: String {
        switch self {
        case .journal(let message): "\(code): \(message)"
        case .refused(let error): "\(error)"
        case .unsettled(let id, let error): "\(code): \(id) (\(error))"
        default: code
        }
    }

    /// A sentence to show the user, in `language` (the String Catalog's `spend.*` messages): not enough to spend,
    /// refused otherwise (nothing was taken), or no answer yet (it completes by itself, and is never taken twice).
    public func message(_ language: PurserLanguage = .current) -> String {
        let key =
            switch self {
            case .notSignedIn: "error.not_signed_in"
            case .refused(let error) where error.code == "insufficient_balance": "spend.insufficient_balance"
            case .unsettled: "spend.unsettled"
            case .noJournal, .invalidAmounts, .journal, .refused, .terminated: "spend.refused"
            }
        return MessageCatalog.shipped.text(key, language)
    }
}
