import AppStoreVerification

/// A notification in the simulator's log: what Get Notification History lists (`sent`, without its signed payload)
/// and what rebuilds that payload byte for byte whenever it is sent or listed: the claims, the transaction as it was,
/// and the two signatures (the signer's JSON has sorted keys, so encoding the same claims again gives the same signed
/// bytes). A signed notification carries its signed transaction inside it, some 17 KB of text: kept for every
/// notification, they were most of a long chaos run's memory (85 of 153 MB of heap at 5,000 purchases); the
/// signatures are 172 characters.
struct LoggedNotification: Sendable {
    /// The notification's record, its `signedPayload` empty (`signed(by:)` fills it).
    var sent: SentNotification
    /// The notification's claims, without `data.signedTransactionInfo`.
    let claims: JWSNotification
    /// The transaction it is about, as it was when the notification was made, and its JWS's signature segment.
    let transaction: (payload: JWSTransaction, signature: String)?
    /// The notification JWS's signature segment.
    let signature: String

    /// Logs `sent`, whose `signedPayload` is the JWS of `claims` (with `signedTransaction`, the JWS of `transaction`).
    init(_ sent: SentNotification, claims: JWSNotification, transaction: JWSTransaction?, signedTransaction: String?) {
        self.signature = Self.signatureSegment(of: sent.signedPayload)
        self.sent = sent
        self.sent.signedPayload = ""
        var claims = claims
        claims.data?.signedTransactionInfo = nil
        self.claims = claims
        if let transaction, let signedTransaction {
            self.transaction = (transaction, Self.signatureSegment(of: signedTransaction))
        } else {
            self.transaction = nil
        }
    }

    /// `sent` with its signed payload, rebuilt by `signer`.
    func signed(by signer: JWSSigner) throws -> SentNotification {
        var claims = claims
        if let transaction {
            claims.data?.signedTransactionInfo = try signer.assemble(
                transaction.payload, signature: transaction.signature)
        }
        var sent = sent
        sent.signedPayload = try signer.assemble(claims, signature: signature)
        return sent
    }

    private static func signatureSegment(of jws: String) -> String {
        guard let dot = jws.lastIndex(of: ".") else { return jws }
        return String(jws[jws.index(after: dot)...])
    }
}
