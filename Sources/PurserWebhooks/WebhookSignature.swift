import Crypto
import Foundation

/// The Standard Webhooks signature scheme, symmetric version `v1`: HMAC-SHA256 with the secret's key over
/// `{webhook-id}.{webhook-timestamp}.{body}`, base64-encoded and prefixed `v1,`; several signatures (one per active
/// secret, for rotation) are separated by spaces in the `webhook-signature` header.
public enum WebhookSignature {
    /// The header names, as the specification spells them.
    public static let idHeader = "webhook-id"
    /// The header with the attempt's Unix time in seconds.
    public static let timestampHeader = "webhook-timestamp"
    /// The header with the `v1,` signatures, space-separated.
    public static let signatureHeader = "webhook-signature"

    /// The `webhook-signature` value for one attempt: `v1,<base64>` for each of `secrets`, space-separated.
    /// - Parameters:
    ///   - id: the event's id (stable across retries); it must not contain `.`.
    ///   - timestamp: the attempt's time in whole seconds since 1970.
    ///   - body: exactly the bytes posted.
    ///   - secrets: the endpoint's secrets; each one adds a signature.
    public static func sign(id: String, timestamp: Int64, body: some DataProtocol, secrets: [WebhookSecret]) -> String {
        let content = signedContent(id: id, timestamp: timestamp, body: body)
        return secrets.map { secret in
            "v1," + Data(HMAC<SHA256>.authenticationCode(for: content, using: secret.key)).base64EncodedString()
        }.joined(separator: " ")
    }

    /// The three headers of one attempt, `webhook-timestamp` from `now`.
    public static func headers(id: String, body: some DataProtocol, secrets: [WebhookSecret], now: Date)
        -> [(name: String, value: String)]
    {
        let timestamp = Int64(now.timeIntervalSince1970.rounded(.down))
        return [
            (idHeader, id), (timestampHeader, String(timestamp)),
            (signatureHeader, sign(id: id, timestamp: timestamp, body: body, secrets: secrets)),
        ]
    }

    /// Whether one of the `v1` signatures in `header` is `secret`'s over the content (compared in constant time).
    static func matches(header: String, id: String, timestamp: Int64, body: some DataProtocol, secret: WebhookSecret)
        -> Bool
    {
        let content = signedContent(id: id, timestamp: timestamp, body: body)
        for candidate in header.split(separator: " ") {
            let parts = candidate.split(separator: ",", maxSplits: 1)
            guard parts.count == 2, parts[0] == "v1", let signature = Data(base64Encoded: String(parts[1])) else {
                continue
            }
            if HMAC<SHA256>.isValidAuthenticationCode(signature, authenticating: content, using: secret.key) {
                return true
            }
        }
        return false
    }

    private static func signedContent(id: String, timestamp: Int64, body: some DataProtocol) -> Data {
        var content = Data("\(id).\(timestamp).".utf8)
        content.append(contentsOf: body)
        return content
    }
}
