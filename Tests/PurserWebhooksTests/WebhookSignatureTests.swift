import Foundation
import PurserWebhooks
import Testing

/// The signature scheme against a vector computed independently (Python's `hmac` over the specification's
/// `{id}.{timestamp}.{body}`), secrets, rotation and the verifier's checks.
@Suite struct WebhookSignatureTests {
    static let secret = "whsec_AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8="
    static let body = Data(
        #"{"data":{"message":"hi"},"timestamp":"2024-01-01T00:00:00.000Z","type":"webhook.test"}"#.utf8)
    static let at = Date(timeIntervalSince1970: 1_704_067_200)

    @Test func signsAsTheSpecificationSays() throws {
        let signature = WebhookSignature.sign(
            id: "msg_1", timestamp: 1_704_067_200, body: Self.body, secrets: [try WebhookSecret(Self.secret)])
        #expect(signature == "v1,A8ZDUElJ+LXhyfrdsjo+rmQ39tmeFZfmJIqmvlYnXps=")
    }

    @Test func signsWithEverySecretForRotation() throws {
        let old = try WebhookSecret(Self.secret)
        let new = WebhookSecret.generate()
        let header = WebhookSignature.sign(id: "msg_1", timestamp: 1_704_067_200, body: Self.body, secrets: [new, old])
        #expect(header.split(separator: " ").count == 2)
        let headers = ["webhook-id": "msg_1", "webhook-timestamp": "1704067200", "webhook-signature": header]
        for secret in [old, new] {
            let verified = try WebhookVerifier(secrets: [secret]).verify(
                body: Self.body, headers: headers, now: Self.at)
            #expect(verified.id == "msg_1")
            #expect(verified.event.type == .test)
            #expect(verified.event.message == "hi")
        }
    }

    @Test func refusesATamperedBodyAnotherSecretAndMissingHeaders() throws {
        let secret = try WebhookSecret(Self.secret)
        let headers = Dictionary(
            uniqueKeysWithValues: WebhookSignature.headers(
                id: "msg_1", body: Self.body, secrets: [secret], now: Self.at
            )
            .map { ($0.name, $0.value) })
        let verifier = WebhookVerifier(secrets: [secret])
        var tampered = Self.body
        tampered[tampered.count - 3] = UInt8(ascii: "X")
        #expect(throws: WebhookVerificationError(.noMatchingSignature, "")) {
            try verifier.verify(body: tampered, headers: headers, now: Self.at)
        }
        #expect(throws: WebhookVerificationError(.noMatchingSignature, "")) {
            try WebhookVerifier(secrets: [.generate()]).verify(body: Self.body, headers: headers, now: Self.at)
        }
        var otherID = headers
        otherID["webhook-id"] = "msg_2"
        #expect(throws: WebhookVerificationError(.noMatchingSignature, "")) {
            try verifier.verify(body: Self.body, headers: otherID, now: Self.at)
        }
        #expect(throws: WebhookVerificationError(.missingHeaders, "")) {
            try verifier.verify(
                body: Self.body, headers: headers.filter { $0.key != "webhook-signature" }, now: Self.at)
        }
        let upperCased = Dictionary(uniqueKeysWithValues: headers.map { ($0.key.uppercased(), $0.value) })
        #expect(try verifier.verify(body: Self.body, headers: upperCased, now: Self.at).id == "msg_1")
    }

    @Test func holdsTheTimestampWithinTheTolerance() throws {
        let secret = try WebhookSecret(Self.secret)
        let verifier = WebhookVerifier(secrets: [secret])
        func headers(_ at: Date) -> [String: String] {
            Dictionary(
                uniqueKeysWithValues: WebhookSignature.headers(id: "msg_1", body: Self.body, secrets: [secret], now: at)
                    .map { ($0.name, $0.value) })
        }
        #expect(try verifier.verify(body: Self.body, headers: headers(Self.at - 299), now: Self.at).id == "msg_1")
        #expect(try verifier.verify(body: Self.body, headers: headers(Self.at + 299), now: Self.at).id == "msg_1")
        #expect(throws: WebhookVerificationError(.timestampTooOld, "")) {
            try verifier.verify(body: Self.body, headers: headers(Self.at - 301), now: Self.at)
        }
        #expect(throws: WebhookVerificationError(.timestampTooNew, "")) {
            try verifier.verify(body: Self.body, headers: headers(Self.at + 301), now: Self.at)
        }
        var garbled = headers(Self.at)
        garbled["webhook-timestamp"] = "soon"
        #expect(throws: WebhookVerificationError(.invalidTimestamp, "")) {
            try verifier.verify(body: Self.body, headers: garbled, now: Self.at)
        }
        let lenient = WebhookVerifier(secrets: [secret], tolerance: .seconds(3600))
        #expect(try lenient.verify(body: Self.body, headers: headers(Self.at - 1800), now: Self.at).id == "msg_1")
    }

    @Test func parsesOnlyWellFormedSecrets() throws {
        #expect(try WebhookSecret(Self.secret).serialized == Self.secret)
        #expect(try WebhookSecret("whsec_AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8").serialized == Self.secret)
        for bad in [
            "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=", "whsec_not base64!", "whsec_AAECAwQFBgcICQoLDA0ODw==",
            "whsec_" + Data(count: 65).base64EncodedString(),
        ] {
            #expect(throws: WebhookVerificationError(.invalidSecret, ""), "\(bad)") { try WebhookSecret(bad) }
        }
        #expect(!"\(try WebhookSecret(Self.secret))".contains("AAECAwQF"), "a secret's description redacts its key")
    }
}
