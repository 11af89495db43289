import AppStoreSimulator
import AppStoreVerification
import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import PurserCore
import Testing

/// The simulator's App Store Server API, driven by the real `AppStoreServerAPIClient` through the router.
@Suite struct ServerAPITests {
    @Test func getsTransactionInfoSignedLikeApples() async throws {
        let fixture = try ServerAPIFixture()
        let bought = try await fixture.buy()
        _ = try await fixture.store.purchase(.init(productId: "gold60", bundleId: "com.example.other"))
        try await fixture.test { client in
            let api = try fixture.client(client)
            let info = try await api.getTransactionInfo(transactionID: bought.transactionId)
            #expect(try await fixture.verifier.verifyTransaction(info.signedTransactionInfo) == bought)

            let missing = await #expect(throws: AppStoreServerAPIError.self) {
                try await api.getTransactionInfo(transactionID: "2000000000000099")
            }
            #expect(missing?.code == .transactionIdNotFound && missing?.apiErrorCode == 4_040_010)
            #expect(missing?.httpStatus == 404)
            await #expect(throws: AppStoreServerAPIError(.transactionIdNotFound, ""), "another bundle's transaction") {
                try await api.getTransactionInfo(transactionID: "2000000000000002")
            }
            await #expect(throws: AppStoreServerAPIError(.invalidTransactionId, "")) {
                try await api.getTransactionInfo(transactionID: "abc")
            }
        }
    }

    /// Get Notification History in pages of 20, oldest first, filtered by transaction; a token that names no place
    /// in the history is refused.
    @Test func pagesTheNotificationHistory() async throws {
        let fixture = try ServerAPIFixture()
        var purchased: [String] = []
        for _ in 0..<45 { purchased.append(try await fixture.buy().transactionId) }
        let all = AppStoreServerAPI.NotificationHistoryRequest(
            startDate: Date(timeIntervalSince1970: 0), endDate: Date().addingTimeInterval(3600))
        let bought = purchased
        try await fixture.test { client in
            let api = try fixture.client(client)
            var pages: [[String]] = []
            var token: String?
            repeat {
                let page = try await api.getNotificationHistory(all, paginationToken: token)
                var ids: [String] = []
                for item in page.notificationHistory {
                    let notification = try await fixture.verifier.verifyNotification(item.signedPayload)
                    ids.append(try #require(notification.transaction?.transactionId))
                }
                pages.append(ids)
                #expect(page.hasMore == (page.paginationToken != nil))
                token = page.paginationToken
            } while token != nil
            #expect(pages.map(\.count) == [20, 20, 5])
            #expect(pages.flatMap { $0 } == bought, "every purchase's notification once, oldest first")

            var one = all
            one.transactionId = bought[31]
            let filtered = try await api.getNotificationHistory(one)
            #expect(filtered.notificationHistory.count == 1 && !filtered.hasMore)
            await #expect(throws: AppStoreServerAPIError.self, "a token past the history") {
                try await api.getNotificationHistory(all, paginationToken: "1000000")
            }
        }
    }

    @Test func pagesTheCustomersHistoryIncludingFinishedConsumablesAndLaterRefunds() async throws {
        let fixture = try ServerAPIFixture()
        var purchased: [String] = []
        for index in 0..<45 {
            let bought = try await fixture.buy(index.isMultiple(of: 3) ? "gem10" : "gold60")
            purchased.append(bought.transactionId)
            if index.isMultiple(of: 2) { try await fixture.store.finish(transactionID: bought.transactionId) }
        }
        let mine = purchased
        try await fixture.buy(device: "device-2")
        try await fixture.buy(environment: .production)
        try await fixture.test { client in
            let api = try fixture.client(client)
            let history = try await api.getAllTransactionHistory(transactionID: mine[7])
            #expect(
                history.pages == 3 && history.environment == "Sandbox" && history.bundleId == ServerAPIFixture.bundleID)
            var decoded: [String] = []
            for jws in history.signedTransactions {
                decoded.append(try await fixture.verifier.verifyTransaction(jws).transactionId)
            }
            #expect(decoded == mine, "every transaction of device-1's Sandbox account, finished ones too, oldest first")

            let first = try await api.getTransactionHistory(transactionID: mine[0], query: .init(sort: .descending))
            #expect(first.hasMore && first.signedTransactions.count == 20)
            #expect(
                try await fixture.verifier.verifyTransaction(try #require(first.signedTransactions.first)).transactionId
                    == mine.last)
            let gems = try await api.getAllTransactionHistory(
                transactionID: mine[0], query: .init(productIds: ["gem10"]))
            #expect(gems.signedTransactions.count == 15)

            // Resuming from the last revision yields only what changed since: a refund and a new purchase.
            _ = try await fixture.store.refund(transactionID: mine[3])
            let newer = try await fixture.buy()
            let resumed = try await api.getAllTransactionHistory(transactionID: mine[0], startingAt: history.revision)
            var changed: [String] = []
            for jws in resumed.signedTransactions {
                changed.append(try await fixture.verifier.verifyTransaction(jws).transactionId)
            }
            #expect(changed == [mine[3], newer.transactionId])
            let refunds = try await api.getRefundHistory(transactionID: mine[0])
            #expect(refunds.signedTransactions.count == 1 && !refunds.hasMore)
            let revoked = try await api.getAllTransactionHistory(transactionID: mine[0], query: .init(revoked: true))
            #expect(revoked.signedTransactions.count == 1)

            await #expect(throws: AppStoreServerAPIError(.invalidRequestRevision, "")) {
                try await api.getTransactionHistory(transactionID: mine[0], revision: "garbage")
            }
        }
    }

    @Test func looksUpOrdersByApplesOrderID() async throws {
        let fixture = try ServerAPIFixture()
        let bought = try await fixture.buy()
        let orderID = try #require(await fixture.store.purchases().first?.appleOrderId)
        try await fixture.test { client in
            let api = try fixture.client(client)
            let found = try await api.lookUpOrderID(orderID)
            #expect(found.isValid && found.signedTransactions.count == 1)
            #expect(try await fixture.verifier.verifyTransaction(found.signedTransactions[0]) == bought)
            let unknown = try await api.lookUpOrderID("NOSUCHORDR")
            #expect(!unknown.isValid && unknown.status == 1 && unknown.signedTransactions.isEmpty)
            let record = try await client.execute(
                uri: "/simulator/v1/server-api/purchases/\(bought.transactionId)", method: .get)
            #expect(
                try JSONDecoder().decode(SimulatedPurchase.self, from: Data(record.body.readableBytesView)).appleOrderId
                    == orderID)
        }
    }

    @Test func setsTheAppAccountToken() async throws {
        let fixture = try ServerAPIFixture()
        let bought = try await fixture.buy()
        let token = UUID()
        try await fixture.test { client in
            let api = try fixture.client(client)
            try await api.setAppAccountToken(token, originalTransactionID: bought.transactionId)
            #expect(
                try await fixture.store.transaction(bought.transactionId).transaction.appAccountToken
                    == token.uuidString.lowercased())
            await #expect(throws: AppStoreServerAPIError(.originalTransactionIdNotFound, "")) {
                try await api.setAppAccountToken(token, originalTransactionID: "2000000000000099")
            }
            let bearer = try await api.token.current()
            let bad = try await client.execute(
                uri: "/inApps/v1/transactions/\(bought.transactionId)/appAccountToken", method: .put,
                headers: [.authorization: "Bearer \(bearer)"], body: ByteBuffer(string: #"{"appAccountToken": "nope"}"#)
            )
            #expect(bad.status == .badRequest)
            #expect(bad.headers[.contentType] == "application/json")
            let error = try JSONDecoder().decode(
                AppStoreServerAPI.ErrorResponse.self, from: Data(bad.body.readableBytesView))
            #expect(error.errorCode == 4_000_183)
        }
    }

    @Test func storesConsumptionInformation() async throws {
        let fixture = try ServerAPIFixture()
        let bought = try await fixture.buy()
        let permanent = try await fixture.buy("sword", type: "Non-Consumable")
        let request = AppStoreServerAPI.ConsumptionRequest(
            consumptionStatus: 2, platform: 1, sampleContentProvided: false, deliveryStatus: 0, appAccountToken: UUID(),
            accountTenure: 3, playTime: 4, lifetimeDollarsRefunded: 1, lifetimeDollarsPurchased: 2, userStatus: 1,
            refundPreference: 2)
        try await fixture.test { client in
            let api = try fixture.client(client)
            try await api.sendConsumptionInformation(transactionID: bought.transactionId, request)
            #expect(await fixture.api.consumptionInformation(transactionID: bought.transactionId) == request)
            let stored = try await client.execute(
                uri: "/simulator/v1/server-api/consumption/\(bought.transactionId)", method: .get)
            #expect(
                try JSONDecoder().decode(
                    AppStoreServerAPI.ConsumptionRequest.self, from: Data(stored.body.readableBytesView)) == request)
            #expect(
                try await client.execute(uri: "/simulator/v1/server-api/consumption/1", method: .get).status
                    == .notFound)

            await #expect(throws: AppStoreServerAPIError(.invalidTransactionNotConsumable, "")) {
                try await api.sendConsumptionInformation(transactionID: permanent.transactionId, request)
            }
            var outOfRange = request
            outOfRange.playTime = 9
            await #expect(throws: AppStoreServerAPIError(.invalidPlayTime, "")) {
                try await api.sendConsumptionInformation(transactionID: bought.transactionId, outOfRange)
            }
            var unconsented = request
            unconsented.customerConsented = false
            await #expect(throws: AppStoreServerAPIError(.invalidCustomerConsented, "")) {
                try await api.sendConsumptionInformation(transactionID: bought.transactionId, unconsented)
            }
        }
    }

    @Test func refusesBadTokensWith401() async throws {
        let fixture = try ServerAPIFixture()
        let bought = try await fixture.buy()
        let header: [String: Any] = ["alg": "ES256", "kid": ServerAPIFixture.keyID, "typ": "JWT"]
        let now = Date()
        var wrongAudience = ServerAPIFixture.claims(at: now)
        wrongAudience["aud"] = "appstoreconnect-v2"
        var wrongBundle = ServerAPIFixture.claims(at: now)
        wrongBundle["bid"] = "com.example.other"
        var tooLong = ServerAPIFixture.claims(at: now)
        tooLong["exp"] = Int(now.timeIntervalSince1970) + 3601
        let refused: [(String, String?)] = [
            (
                "unknown kid",
                try ServerAPIFixture.jwt(
                    header: ["alg": "ES256", "kid": "OTHERKEY", "typ": "JWT"],
                    claims: ServerAPIFixture.claims(at: now), key: fixture.key)
            ),
            (
                "signed by another key",
                try ServerAPIFixture.jwt(
                    header: header, claims: ServerAPIFixture.claims(at: now),
                    key: P256.Signing.PrivateKey())
            ),
            ("wrong aud", try ServerAPIFixture.jwt(header: header, claims: wrongAudience, key: fixture.key)),
            ("wrong bid", try ServerAPIFixture.jwt(header: header, claims: wrongBundle, key: fixture.key)),
            (
                "expired",
                try ServerAPIFixture.jwt(
                    header: header, claims: ServerAPIFixture.claims(at: now - 3600), key: fixture.key)
            ),
            ("over 60 minutes", try ServerAPIFixture.jwt(header: header, claims: tooLong, key: fixture.key)),
            ("no token", nil),
        ]
        var withoutIAT = ServerAPIFixture.claims(at: now)
        withoutIAT["iat"] = nil
        let accepted = try ServerAPIFixture.jwt(header: header, claims: withoutIAT, key: fixture.key)
        try await fixture.test { client in
            let uri = "/inApps/v1/transactions/\(bought.transactionId)"
            for (reason, token) in refused {
                let headers: HTTPFields = token.map { [.authorization: "Bearer \($0)"] } ?? [:]
                let response = try await client.execute(uri: uri, method: .get, headers: headers)
                #expect(response.status == .unauthorized, "\(reason)")
                #expect(response.headers[.wwwAuthenticate]?.hasPrefix("Bearer error=\"invalid_token\"") == true)
            }
            let python = try await client.execute(
                uri: uri, method: .get, headers: [.authorization: "Bearer \(accepted)"])
            #expect(python.status == .ok, "no iat, as Apple's own libraries send it")
        }
    }

    @Test func injectedRateLimitAndOutageMakeTheClientWaitThenSucceed() async throws {
        let fixture = try ServerAPIFixture()
        let bought = try await fixture.buy()
        try await fixture.test { client in
            let faults = try await client.execute(
                uri: "/simulator/v1/server-api/faults", method: .post,
                body: ByteBuffer(string: #"[{"status": 429, "retryAfter": 3}, {"status": 503}]"#))
            #expect(faults.status == .noContent)
            let api = try fixture.client(client, retry: .init(maximumAttempts: 3, baseDelay: .milliseconds(100)))
            let info = try await api.getTransactionInfo(transactionID: bought.transactionId)
            #expect(
                try await fixture.verifier.verifyTransaction(info.signedTransactionInfo).transactionId
                    == bought.transactionId)
            #expect(fixture.sleeps.delays == [.seconds(3), .milliseconds(200)])

            await fixture.api.injectFaults([ServerAPIFault(status: 429, retryAfter: 1)])
            let rateLimited = await #expect(throws: AppStoreServerAPIError.self) {
                try await fixture.client(client, retry: .none).getTransactionInfo(transactionID: bought.transactionId)
            }
            #expect(rateLimited?.code == .rateLimitExceeded && rateLimited?.retryAfter == .seconds(1))
            #expect(rateLimited?.apiErrorCode == 4_290_000)
        }
    }
}
