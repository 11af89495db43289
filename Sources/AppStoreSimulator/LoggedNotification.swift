import AppStoreVerification

/// A notification in the simulator's log: what Get Notification History lists (`sent`, without its signed payload)
/// and what rebuilds that payload byte for byte whenever it is sent or listed: the claims, the transaction as it was,
/// and the two signatures (the signer's JSON has sorted keys, so encoding the same claims again gives the same signed
/// bytes). A signed notification carries its signed transaction inside it, some 17 KB of text: kept for every
/// notification, they were most of a long chaos run's memory (85 of 153 MB of heap at 5,000 purchases); the
/// signatures are 172 characters. The claims are kept as the three values `sent` does not already hold (224 bytes an
/// entry instead of 528 with the claims whole).
struct LoggedNotification: Sendable {
    /// The notification's record, its `signedPayload` empty (`signed(by:)` fills it).
    var sent: SentNotification
    /// What the claims hold beyond `sent` (type, subtype, UUID and bundle id): `claims` rebuilds them.
    let signedDate: Int64?
    let appAppleId: Int64?
    let environment: String?
    /// The transaction it is about, as it was when the notification was made (the state the purchase's record held
    /// then, not a copy), and its JWS's signature segment.
    let transaction: (state: TransactionState, signature: String)?
    /// The notification JWS's signature segment.
    let signature: String

    /// Logs `sent`, whose `signedPayload` is the JWS of `claims` (with `signedTransaction`, the JWS of `transaction`).
    init(
        _ sent: SentNotification, claims: JWSNotification, transaction: TransactionState?, signedTransaction: String?
    ) {
        self.signature = Self.signatureSegment(of: sent.signedPayload)
        self.sent = sent
        self.sent.signedPayload = ""
        self.signedDate = claims.signedDate
        self.appAppleId = claims.data?.appAppleId
        self.environment = claims.data?.environment
        if let transaction, let signedTransaction {
            self.transaction = (transaction, Self.signatureSegment(of: signedTransaction))
        } else {
            self.transaction = nil
        }
        var unsigned = claims
        unsigned.data?.signedTransactionInfo = nil
        precondition(self.claims == unsigned, "a notification the log cannot rebuild from what it keeps")
    }

    /// The notification's claims, without `data.signedTransactionInfo`.
    var claims: JWSNotification {
        JWSNotification(
            notificationType: sent.notificationType, subtype: sent.subtype, notificationUUID: sent.notificationUUID,
            data: .init(
                appAppleId: appAppleId, bundleId: sent.bundleId, environment: environment, signedTransactionInfo: nil),
            signedDate: signedDate)
    }

    /// `sent` with its signed payload, rebuilt by `signer`.
    func signed(by signer: JWSSigner) throws -> SentNotification {
        var claims = claims
        if let transaction {
            claims.data?.signedTransactionInfo = try signer.assemble(
                transaction.state.payload, signature: transaction.signature)
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
