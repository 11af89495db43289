import AppStoreSimulator
import AppStoreVerification
import Crypto
import Foundation
import Testing

/// The simulator's bearer-token check (jwt-kit for the signature, Apple's rules for the claims): each refusal says
/// why, in the 401's message.
@Suite struct ServerAPIAuthorizationTests {
    typealias Fixture = ServerAPIFixture

    /// The fixture with its key registered directly (no HTTP).
    func fixture() async throws -> Fixture {
        let fixture = try Fixture()
        await fixture.api.register(
            .init(
                issuerId: Fixture.issuerID, keyId: Fixture.keyID, bundleId: Fixture.bundleID,
                publicKey: fixture.key.publicKey))
        return fixture
    }

    /// The refusal's message, or nil when the token was admitted.
    func refusal(_ api: SimulatedServerAPI, _ token: String?) async -> String? {
        do {
            _ = try await api.authorize(token.map { "Bearer \($0)" })
            return nil
        } catch {
            #expect(error.code == .unauthorized && error.httpStatus == 401)
            return error.message
        }
    }

    /// A token with any header, its signature made by `sign` over the signing input.
    func token(
        header: [String: Any], claims: [String: Any] = Fixture.claims(),
        sign: (Data) throws -> Data
    ) throws -> String {
        let input =
            Base64URL.encode(try JSONSerialization.data(withJSONObject: header)) + "."
            + Base64URL.encode(try JSONSerialization.data(withJSONObject: claims))
        return input + "." + Base64URL.encode(try sign(Data(input.utf8)))
    }

    @Test func admitsTheClientsTokenAndSaysWhyOthersAreRefused() async throws {
        let fixture = try await fixture()
        let client = try AppStoreServerAPIToken(
            issuerID: Fixture.issuerID, keyID: Fixture.keyID,
            bundleID: Fixture.bundleID, privateKey: fixture.key)
        #expect(try await fixture.api.authorize("Bearer \(try await client.current())").keyId == Fixture.keyID)

        let es256 = { (data: Data) in try fixture.key.signature(for: data).rawRepresentation }
        var noBundle = Fixture.claims()
        noBundle["bid"] = nil
        var wrongAudience = Fixture.claims()
        wrongAudience["aud"] = "appstoreconnect-v2"
        let publicKeyBytes = SymmetricKey(data: Data(fixture.key.publicKey.pemRepresentation.utf8))
        let cases: [(token: String?, reason: String)] = [
            (nil, "no bearer token"),
            ("garbage", "not a compact JWT"),
            // A correct ES256 signature under another `alg`: jwt-kit would check it with the key's algorithm.
            (try token(header: ["alg": "ES384", "kid": Fixture.keyID], sign: es256), "alg must be ES256"),
            (try token(header: ["alg": "none", "kid": Fixture.keyID]) { _ in Data() }, "alg must be ES256"),
            (
                try token(header: ["alg": "HS256", "kid": Fixture.keyID]) {
                    Data(HMAC<SHA256>.authenticationCode(for: $0, using: publicKeyBytes))
                }, "alg must be ES256"
            ),
            (try token(header: ["alg": "ES256", "kid": "OTHERKEY"], sign: es256), "unknown kid"),
            (try token(header: ["alg": "ES256"], sign: es256), "unknown kid"),
            (
                try token(header: ["alg": "ES256", "kid": Fixture.keyID]) {
                    try P256.Signing.PrivateKey().signature(for: $0).rawRepresentation
                }, "bad signature"
            ),
            (
                try token(header: ["alg": "ES256", "kid": Fixture.keyID], claims: noBundle, sign: es256),
                "the claims do not decode"
            ),
            (
                try token(header: ["alg": "ES256", "kid": Fixture.keyID], claims: wrongAudience, sign: es256),
                "aud must be appstoreconnect-v1"
            ),
        ]
        for (token, reason) in cases {
            let refused = await refusal(fixture.api, token)
            #expect(refused?.contains(reason) == true, "expected \(reason), got \(refused ?? "admitted")")
        }
        // Each refusal is counted (a chaos run fails on any); an injected fault is not a refusal.
        #expect(await fixture.api.refusals.values.reduce(0, +) == cases.count)
        await fixture.api.injectFaults([ServerAPIFault(status: 401)])
        _ = await refusal(fixture.api, try await client.current())
        #expect(await fixture.api.refusals.values.reduce(0, +) == cases.count)
    }
}

/// One App Store Connect key signs for every app of its team, as Apple's does: registered again for another app,
/// the simulator admits tokens for both, acting for the token's `bid`, and still refuses an app it was never given.
extension ServerAPIAuthorizationTests {
    @Test func oneKeySignsForEveryAppItWasRegisteredFor() async throws {
        let fixture = try await fixture()
        await fixture.api.register(
            .init(
                issuerId: Fixture.issuerID, keyId: Fixture.keyID, bundleId: "com.example.racers",
                publicKey: fixture.key.publicKey))
        for bundle in [Fixture.bundleID, "com.example.racers"] {
            let client = try AppStoreServerAPIToken(
                issuerID: Fixture.issuerID, keyID: Fixture.keyID, bundleID: bundle, privateKey: fixture.key)
            #expect(try await fixture.api.authorize("Bearer \(try await client.current())").bundleId == bundle)
        }
        let stranger = try AppStoreServerAPIToken(
            issuerID: Fixture.issuerID, keyID: Fixture.keyID, bundleID: "com.example.other", privateKey: fixture.key)
        #expect(await refusal(fixture.api, try await stranger.current()) == "bid does not match the key")
        // Another key under the same id replaces the first, with its apps.
        let replacement = P256.Signing.PrivateKey()
        await fixture.api.register(
            .init(
                issuerId: Fixture.issuerID, keyId: Fixture.keyID, bundleId: "com.example.racers",
                publicKey: replacement.publicKey))
        let old = try AppStoreServerAPIToken(
            issuerID: Fixture.issuerID, keyID: Fixture.keyID, bundleID: Fixture.bundleID, privateKey: replacement)
        #expect(await refusal(fixture.api, try await old.current()) == "bid does not match the key")
    }
}

/// Get Notification History answers each app of a team's key (the token's `bid`) only its own notifications, as
/// Apple's does (one app's reconciliation once replayed another app's refunds into its ledger).
extension ServerAPIAuthorizationTests {
    @Test func theNotificationHistoryOfOneAppHoldsOnlyItsNotifications() async throws {
        let fixture = try await fixture()
        let racers = "com.example.racers"
        await fixture.api.register(
            .init(issuerId: Fixture.issuerID, keyId: Fixture.keyID, bundleId: racers, publicKey: fixture.key.publicKey))
        let own = try await fixture.store.purchase(.init(productId: "gold60")).transaction.transactionId
        let other = try await fixture.store.purchase(.init(productId: "gems10", bundleId: racers)).transaction
            .transactionId
        let body = try JSONEncoder().encode(
            AppStoreVerification.AppStoreServerAPI.NotificationHistoryRequest(
                startDate: Date(timeIntervalSince1970: 0), endDate: Date().addingTimeInterval(3600)))
        for (bundle, expected) in [(Fixture.bundleID, own), (racers, other)] {
            let token = try AppStoreServerAPIToken(
                issuerID: Fixture.issuerID, keyID: Fixture.keyID, bundleID: bundle, privateKey: fixture.key)
            let history = try await fixture.api.notificationHistory(
                body: body, paginationToken: nil, authorization: "Bearer \(try await token.current())")
            let ids = history.notificationHistory.map { Self.transactionID(inNotification: $0.signedPayload) }
            #expect(ids == [expected], "\(bundle)")
        }
    }

    /// The transaction id inside a signed notification's signed transaction, read without checking signatures.
    static func transactionID(inNotification jws: String) -> String? {
        func payload(_ jws: String) -> [String: Any]? {
            let parts = jws.split(separator: ".")
            guard parts.count == 3 else { return nil }
            return Base64URL.decode(parts[1].utf8).flatMap { try? JSONSerialization.jsonObject(with: $0) }
                as? [String: Any]
        }
        guard let data = payload(jws)?["data"] as? [String: Any], let signed = data["signedTransactionInfo"] as? String
        else { return nil }
        return payload(signed)?["transactionId"] as? String
    }
}
