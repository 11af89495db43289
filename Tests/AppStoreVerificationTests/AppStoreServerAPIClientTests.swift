import AppStoreVerification
import Crypto
import Foundation
import Testing

/// The App Store Server API client against a scripted transport: paths, bearer tokens, bodies, retries, errors.
@Suite struct AppStoreServerAPIClientTests {
    /// Answers from a script, first in first out, and records every request.
    final class ScriptedTransport: AppStoreHTTPTransport, @unchecked Sendable {
        enum Step {
            case answer(Int, json: String = "", headers: [String: String] = [:])
            case fail
        }
        private let lock = NSLock()
        private var steps: [Step]
        private var recorded: [AppStoreHTTPRequest] = []

        init(_ steps: [Step]) { self.steps = steps }

        var requests: [AppStoreHTTPRequest] { lock.withLock { recorded } }

        func send(_ request: AppStoreHTTPRequest) async throws -> AppStoreHTTPResponse {
            let step: Step = lock.withLock {
                recorded.append(request)
                return steps.isEmpty ? .fail : steps.removeFirst()
            }
            switch step {
            case .answer(let status, let json, let headers):
                var all = headers
                if !json.isEmpty { all["Content-Type"] = "application/json" }
                return AppStoreHTTPResponse(status: status, headers: all, body: Data(json.utf8))
            case .fail:
                throw URLError(.timedOut)
            }
        }
    }

    /// Records the waits instead of waiting.
    final class SleepRecorder: @unchecked Sendable {
        private let lock = NSLock()
        private var recorded: [Duration] = []
        var delays: [Duration] { lock.withLock { recorded } }
        func sleep(_ duration: Duration) { lock.withLock { recorded.append(duration) } }
    }

    let key = P256.Signing.PrivateKey()
    let sleeps = SleepRecorder()

    func client(
        _ transport: ScriptedTransport, base: String = "https://api.storekit.itunes.apple.com",
        retry: AppStoreServerAPIClient.RetryPolicy = .init()
    ) throws -> AppStoreServerAPIClient {
        let sleeps = sleeps
        return try AppStoreServerAPIClient(
            configuration: .init(
                issuerID: "issuer-1", keyID: "KEY1", bundleID: "com.example.app", privateKey: key,
                baseURL: URL(string: base)!, timeout: .seconds(5), retryPolicy: retry,
                sleep: { sleeps.sleep($0) }),
            transport: transport)
    }

    static let notFound = #"{"errorCode": 4040010, "errorMessage": "Transaction id not found."}"#

    @Test func getsTransactionInfoWithABearerTokenSignedByTheKey() async throws {
        let transport = ScriptedTransport([.answer(200, json: #"{"signedTransactionInfo": "a.b.c"}"#)])
        let info = try await client(transport).getTransactionInfo(transactionID: "2000000000000001")
        #expect(info.signedTransactionInfo == "a.b.c")
        let request = try #require(transport.requests.first)
        #expect(request.method == "GET")
        #expect(
            request.url.absoluteString
                == "https://api.storekit.itunes.apple.com/inApps/v1/transactions/2000000000000001")
        #expect(request.timeout == .seconds(5))
        let bearer = try #require(request.headers["Authorization"])
        #expect(bearer.hasPrefix("Bearer "))
        let jwt = try DecodedJWT(String(bearer.dropFirst("Bearer ".count)))
        #expect(jwt.verifies(with: key.publicKey))
        #expect(jwt.header["kid"] as? String == "KEY1" && jwt.claims["bid"] as? String == "com.example.app")
    }

    @Test func neverPrintsThePrivateKey() throws {
        let configuration = try client(ScriptedTransport([])).configuration
        let pemBody = key.pemRepresentation.split(separator: "\n")[1]
        for text in [String(describing: configuration), String(reflecting: configuration), "\(configuration)"] {
            #expect(text.contains("<redacted>") && !text.contains(pemBody))
        }
    }

    @Test func waitsForRetryAfterOn429ThenSucceeds() async throws {
        let transport = ScriptedTransport([
            .answer(
                429, json: #"{"errorCode": 4290000, "errorMessage": "Rate limit exceeded."}"#,
                headers: ["retry-after": "7"]),
            .answer(200, json: #"{"signedTransactionInfo": "a.b.c"}"#),
        ])
        _ = try await client(transport).getTransactionInfo(transactionID: "1")
        #expect(sleeps.delays == [.seconds(7)])
        #expect(transport.requests.count == 2)
    }

    @Test func givesUpAtOnceWhenRetryAfterIsTooLong() async throws {
        let transport = ScriptedTransport([.answer(429, headers: ["Retry-After": "3600"])])
        let error = await #expect(throws: AppStoreServerAPIError.self) {
            try await client(transport).getTransactionInfo(transactionID: "1")
        }
        #expect(error?.code == .rateLimitExceeded)
        #expect(error?.retryAfter == .seconds(3600))
        #expect(sleeps.delays.isEmpty && transport.requests.count == 1)
    }

    @Test func retries5xxWithBackoffThenReportsTheServerUnavailable() async throws {
        let transport = ScriptedTransport([
            .answer(503), .answer(500, json: #"{"errorCode": 5000001, "errorMessage": "Try again."}"#), .answer(502),
        ])
        let error = await #expect(throws: AppStoreServerAPIError.self) {
            try await client(transport).getTransactionInfo(transactionID: "1")
        }
        #expect(error?.code == .serverUnavailable)
        #expect(error?.httpStatus == 502)
        #expect(transport.requests.count == 3)
        #expect(sleeps.delays == [.seconds(1), .seconds(2)])
    }

    @Test func retriesTransportFailuresAndRecovers() async throws {
        let recovering = ScriptedTransport([
            .fail, .answer(500), .answer(200, json: #"{"signedTransactionInfo": "x"}"#),
        ])
        #expect(try await client(recovering).getTransactionInfo(transactionID: "1").signedTransactionInfo == "x")
        let down = ScriptedTransport([])
        let error = await #expect(throws: AppStoreServerAPIError.self) {
            try await client(down, retry: .init(maximumAttempts: 2)).getTransactionInfo(transactionID: "1")
        }
        #expect(error?.code == .serverUnavailable)
        #expect(down.requests.count == 2)
        #expect(error?.cause is URLError)
    }

    @Test func decodesApplesErrorCodesWithoutRetrying() async throws {
        let transport = ScriptedTransport([.answer(404, json: Self.notFound)])
        let error = await #expect(throws: AppStoreServerAPIError.self) {
            try await client(transport).getTransactionInfo(transactionID: "404")
        }
        #expect(error?.code == .transactionIdNotFound)
        #expect(error?.code.description == "transaction_id_not_found")
        #expect(error?.apiErrorCode == 4_040_010 && error?.httpStatus == 404)
        #expect(transport.requests.count == 1 && sleeps.delays.isEmpty)

        let unknown = ScriptedTransport([.answer(400, json: #"{"errorCode": 4009999, "errorMessage": "New."}"#)])
        let other = await #expect(throws: AppStoreServerAPIError.self) {
            try await client(unknown).getTransactionInfo(transactionID: "1")
        }
        #expect(other?.code == .apiError && other?.apiErrorCode == 4_009_999)
    }

    @Test func reportsUnauthorizedAndUnexpectedAnswers() async throws {
        let refused = ScriptedTransport([.answer(401)])
        await #expect(throws: AppStoreServerAPIError(.unauthorized, "")) {
            try await client(refused).getTransactionInfo(transactionID: "1")
        }
        #expect(refused.requests.count == 1)
        let garbled = ScriptedTransport([.answer(200, json: "{}"), .answer(418)])
        await #expect(throws: AppStoreServerAPIError(.unexpectedResponse, "")) {
            try await client(garbled).getTransactionInfo(transactionID: "1")
        }
        await #expect(throws: AppStoreServerAPIError(.unexpectedResponse, "")) {
            try await client(garbled).getTransactionInfo(transactionID: "1")
        }
    }

    @Test func pagesThroughTheWholeHistoryWithTheSameFilters() async throws {
        func page(_ revision: String, _ hasMore: Bool, _ ids: [String]) -> ScriptedTransport.Step {
            .answer(
                200,
                json: """
                    {"revision": "\(revision)", "hasMore": \(hasMore), "bundleId": "com.example.app", "environment": "Sandbox",
                     "signedTransactions": [\(ids.map { "\"\($0)\"" }.joined(separator: ","))]}
                    """)
        }
        let transport = ScriptedTransport([
            page("r1", true, ["t1", "t2"]), page("r/2+", true, ["t3"]), page("r3", false, []),
        ])
        let query = AppStoreServerAPI.TransactionHistoryQuery(
            productTypes: [.consumable], sort: .descending, revoked: false)
        let history = try await client(transport).getAllTransactionHistory(
            transactionID: "7", startingAt: "r0", query: query)
        #expect(history.signedTransactions == ["t1", "t2", "t3"])
        #expect(history.revision == "r3" && history.pages == 3 && history.environment == "Sandbox")
        let urls = transport.requests.map(\.url.absoluteString)
        let filters = "&productType=CONSUMABLE&sort=DESCENDING&revoked=false"
        #expect(
            urls
                == ["r0", "r1", "r%2F2%2B"].map {
                    "https://api.storekit.itunes.apple.com/inApps/v2/history/7?revision=\($0)\(filters)"
                })

        let stuck = ScriptedTransport([page("same", true, ["t1"]), page("same", true, ["t1"])])
        await #expect(throws: AppStoreServerAPIError(.unexpectedResponse, "")) {
            try await client(stuck).getAllTransactionHistory(transactionID: "7")
        }
    }

    @Test func sendsApplesBodiesAndPaths() async throws {
        let transport = ScriptedTransport([
            .answer(202), .answer(200),
            .answer(200, json: #"{"notificationHistory": [{"signedPayload": "n.o.p"}], "hasMore": false}"#),
            .answer(200, json: #"{"status": 1}"#),
            .answer(200, json: #"{"signedTransactions": [], "revision": "r", "hasMore": false}"#),
            .answer(200, json: #"{"testNotificationToken": "tok"}"#),
        ])
        let api = try client(transport, base: "http://127.0.0.1:8081/")
        let token = UUID()
        try await api.sendConsumptionInformation(
            transactionID: "11",
            .init(
                consumptionStatus: 3, platform: 1, sampleContentProvided: false, deliveryStatus: 0,
                appAccountToken: token,
                accountTenure: 2, playTime: 4, lifetimeDollarsRefunded: 1, lifetimeDollarsPurchased: 3, userStatus: 1))
        try await api.setAppAccountToken(token, originalTransactionID: "12")
        let history = try await api.getNotificationHistory(
            .init(
                startDate: Date(timeIntervalSince1970: 1), endDate: Date(timeIntervalSince1970: 2),
                notificationType: "REFUND"), paginationToken: "p 1")
        #expect(history.notificationHistory.map(\.signedPayload) == ["n.o.p"])
        #expect(try await !api.lookUpOrderID("MK5TTTVWJH").isValid)
        #expect(try await api.getRefundHistory(transactionID: "13", revision: "r0").revision == "r")
        #expect(try await api.requestTestNotification().testNotificationToken == "tok")

        let requests = transport.requests
        #expect(requests.map(\.method) == ["PUT", "PUT", "POST", "GET", "GET", "POST"])
        #expect(
            requests.map { $0.url.absoluteString.replacingOccurrences(of: "http://127.0.0.1:8081", with: "") } == [
                "/inApps/v1/transactions/consumption/11", "/inApps/v1/transactions/12/appAccountToken",
                "/inApps/v1/notifications/history?paginationToken=p%201", "/inApps/v1/lookup/MK5TTTVWJH",
                "/inApps/v2/refund/lookup/13?revision=r0", "/inApps/v1/notifications/test",
            ])
        let consumption = try JSONSerialization.jsonObject(with: try #require(requests[0].body)) as? [String: Any]
        #expect(
            Set(consumption?.keys.map { $0 } ?? []) == [
                "customerConsented", "consumptionStatus", "platform", "sampleContentProvided", "deliveryStatus",
                "appAccountToken", "accountTenure", "playTime", "lifetimeDollarsRefunded", "lifetimeDollarsPurchased",
                "userStatus",
            ])
        #expect(consumption?["appAccountToken"] as? String == token.uuidString.lowercased())
        #expect(consumption?["customerConsented"] as? Bool == true)
        #expect(requests[0].headers["Content-Type"] == "application/json")
        let update = try JSONSerialization.jsonObject(with: try #require(requests[1].body)) as? [String: String]
        #expect(update == ["appAccountToken": token.uuidString.lowercased()])
        let notifications = try JSONSerialization.jsonObject(with: try #require(requests[2].body)) as? [String: Any]
        #expect(notifications?["startDate"] as? Int == 1000 && notifications?["endDate"] as? Int == 2000)
        #expect(notifications?["notificationType"] as? String == "REFUND")
    }
}
