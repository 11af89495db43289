import AppStoreVerification

/// One state of a transaction, never changed once made: a refund makes a new state, and the notifications sent
/// before it keep the old one.
final class TransactionState: Sendable {
    let payload: JWSTransaction

    init(_ payload: JWSTransaction) { self.payload = payload }

    /// `state` when it holds `payload`, else a new state of `payload`.
    static func reusing(_ state: TransactionState?, for payload: JWSTransaction) -> TransactionState {
        if let state, state.payload == payload { return state }
        return TransactionState(payload)
    }
}
