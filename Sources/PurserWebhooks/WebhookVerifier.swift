import Foundation

/// What a game backend runs on every webhook: checks the Standard Webhooks signature against its secrets, checks the
/// attempt's timestamp within a tolerance (five minutes by default, so a captured request cannot be replayed later),
/// and decodes Purser's event. Apply the event once per `VerifiedWebhook.id`: Purser delivers at least once.
public struct WebhookVerifier: Sendable {
    /// The secrets any of which may have signed (several during a rotation).
    public var secrets: [WebhookSecret]
    /// How far the attempt's `webhook-timestamp` may be from `now`, either way.
    public var tolerance: Duration

    /// A verifier for `secrets`, any of which may have signed.
    public init(secrets: [WebhookSecret], tolerance: Duration = .seconds(300)) {
        self.secrets = secrets
        self.tolerance = tolerance
    }

    /// A verifier for one serialised secret (`whsec_…`).
    public init(secret: String, tolerance: Duration = .seconds(300)) throws(WebhookVerificationError) {
        self.init(secrets: [try WebhookSecret(secret)], tolerance: tolerance)
    }

    /// Verifies one request and decodes its event.
    /// - Parameters:
    ///   - body: the request body exactly as received (never re-encoded JSON).
    ///   - header: the request's header value by name (`webhook-id`, `webhook-timestamp`, `webhook-signature`).
    ///   - now: the receiver's clock.
    public func verify(body: some DataProtocol, header: (String) -> String?, now: Date = Date())
        throws(WebhookVerificationError) -> VerifiedWebhook
    {
        guard let id = header(WebhookSignature.idHeader), let stamp = header(WebhookSignature.timestampHeader),
            let signature = header(WebhookSignature.signatureHeader)
        else {
            throw WebhookVerificationError(.missingHeaders, "webhook-id, webhook-timestamp and webhook-signature")
        }
        let timestamp = try checkedTimestamp(stamp, now: now)
        guard
            secrets.contains(where: {
                WebhookSignature.matches(header: signature, id: id, timestamp: timestamp, body: body, secret: $0)
            })
        else {
            throw WebhookVerificationError(.noMatchingSignature, "no v1 signature matches the secrets")
        }
        let event: WebhookEvent
        do {
            event = try WebhookEvent.decoder.decode(WebhookEvent.self, from: Data(body))
        } catch {
            throw WebhookVerificationError(.malformedBody, "the body is not a Purser webhook event")
        }
        return VerifiedWebhook(id: id, attemptedAt: Date(timeIntervalSince1970: TimeInterval(timestamp)), event: event)
    }

    /// Verifies with headers in a dictionary; names are matched case-insensitively.
    public func verify(body: some DataProtocol, headers: [String: String], now: Date = Date())
        throws(WebhookVerificationError) -> VerifiedWebhook
    {
        let lowered = Dictionary(
            headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first })
        return try verify(body: body, header: { lowered[$0] }, now: now)
    }

    private func checkedTimestamp(_ text: String, now: Date) throws(WebhookVerificationError) -> Int64 {
        guard let timestamp = Int64(text.trimmingCharacters(in: .whitespaces)) else {
            throw WebhookVerificationError(.invalidTimestamp, "webhook-timestamp is not whole seconds since 1970")
        }
        let (seconds, attoseconds) = tolerance.components
        let allowed = TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
        let skew = TimeInterval(timestamp) - now.timeIntervalSince1970
        if skew < -allowed { throw WebhookVerificationError(.timestampTooOld, "the attempt is older than allowed") }
        if skew > allowed { throw WebhookVerificationError(.timestampTooNew, "the attempt is too far in the future") }
        return timestamp
    }
}

/// A webhook whose signature and timestamp verified.
public struct VerifiedWebhook: Sendable, Hashable {
    /// `webhook-id`: the event's id, the same on every retry. The receiver's idempotency key.
    public var id: String
    /// This attempt's `webhook-timestamp`.
    public var attemptedAt: Date
    /// The event the body holds.
    public var event: WebhookEvent
}
