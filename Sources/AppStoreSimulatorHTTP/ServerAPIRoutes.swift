import AppStoreSimulator
import AppStoreVerification
import Crypto
import Foundation
import Hummingbird

/// The simulator's App Store Server API over HTTP, at Apple's paths:
/// - `GET /inApps/v1/transactions/{transactionId}` (Get Transaction Info)
/// - `GET /inApps/v2/history/{transactionId}?revision=…` (Get Transaction History v2, Apple's query filters)
/// - `GET /inApps/v1/lookup/{orderId}` (Look Up Order ID)
/// - `GET /inApps/v2/refund/lookup/{transactionId}?revision=…` (Get Refund History v2)
/// - `PUT /inApps/v1/transactions/consumption/{transactionId}` (Send Consumption Information V1, 202)
/// - `PUT /inApps/v2/transactions/consumption/{transactionId}` (Send Consumption Information, version 2, 202)
/// - `PUT /inApps/v1/transactions/{originalTransactionId}/appAccountToken` (Set App Account Token)
/// - `POST /inApps/v1/transactions/{transactionId}/finish` (Finish Transaction, 200 with no body)
/// - `POST /inApps/v1/notifications/history`, `POST /inApps/v1/notifications/test` (see `+Notifications`)
///
/// Errors are Apple's `{"errorCode", "errorMessage"}` with Apple's status; a refused token is a bare 401 with the
/// reason in `WWW-Authenticate`. Control API, under `/simulator/v1/server-api`:
/// - `POST keys` `{issuerId, keyId, bundleId, publicKeyPEM}` registers an App Store Connect key (204)
/// - `POST faults` `[{"status": 429, "retryAfter": 1}, {"status": 503}]`: the next calls answer these (204)
/// - `GET consumption/{transactionId}`, `GET consumption/v2/{transactionId}`: the version 1 or 2 consumption
///   information last sent for it (404 if none)
/// - `GET purchases/{transactionId}`: the simulator's record, with the Apple order id Look Up Order ID takes
public struct ServerAPIRoutes: Sendable {
    /// The body of `POST /simulator/v1/server-api/keys`.
    public struct KeyRegistration: Codable, Sendable {
        public var issuerId: String
        public var keyId: String
        public var bundleId: String
        /// The key's public half, PEM (`-----BEGIN PUBLIC KEY-----`).
        public var publicKeyPEM: String

        public init(issuerId: String, keyId: String, bundleId: String, publicKeyPEM: String) {
            self.issuerId = issuerId
            self.keyId = keyId
            self.bundleId = bundleId
            self.publicKeyPEM = publicKeyPEM
        }
    }

    public let api: SimulatedServerAPI

    public init(api: SimulatedServerAPI) {
        self.api = api
    }

    /// Adds Apple's endpoints and the control API to `router`.
    public func addRoutes<Context: RequestContext>(to router: Router<Context>) {
        let api = api
        router.get("inApps/v1/transactions/{transactionId}") { request, context in
            let id = try context.parameters.require("transactionId")
            return await Self.answer { () async throws(AppStoreServerAPIError) in
                try await api.transactionInfo(transactionID: id, authorization: request.headers[.authorization])
            }
        }
        router.get("inApps/v2/history/{transactionId}") { request, context in
            let id = try context.parameters.require("transactionId")
            let query = request.uri.queryParameters.map { URLQueryItem(name: String($0.key), value: String($0.value)) }
            return await Self.answer { () async throws(AppStoreServerAPIError) in
                try await api.transactionHistory(
                    transactionID: id, query: query,
                    authorization: request.headers[.authorization])
            }
        }
        router.get("inApps/v1/lookup/{orderId}") { request, context in
            let id = try context.parameters.require("orderId")
            return await Self.answer { () async throws(AppStoreServerAPIError) in
                try await api.lookUpOrder(orderID: id, authorization: request.headers[.authorization])
            }
        }
        router.get("inApps/v2/refund/lookup/{transactionId}") { request, context in
            let id = try context.parameters.require("transactionId")
            let revision = request.uri.queryParameters["revision"].map(String.init)
            return await Self.answer { () async throws(AppStoreServerAPIError) in
                try await api.refundHistory(
                    transactionID: id, revision: revision,
                    authorization: request.headers[.authorization])
            }
        }
        router.put("inApps/v1/transactions/consumption/{transactionId}") { request, context in
            let id = try context.parameters.require("transactionId")
            let body = Data(try await request.body.collect(upTo: 64 * 1024).readableBytesView)
            return await Self.answer(status: .accepted) { () async throws(AppStoreServerAPIError) in
                try await api.receiveConsumptionInformation(
                    transactionID: id, body: body,
                    authorization: request.headers[.authorization])
            }
        }
        router.put("inApps/v2/transactions/consumption/{transactionId}") { request, context in
            let id = try context.parameters.require("transactionId")
            let body = Data(try await request.body.collect(upTo: 64 * 1024).readableBytesView)
            return await Self.answer(status: .accepted) { () async throws(AppStoreServerAPIError) in
                try await api.receiveConsumptionInformationV2(
                    transactionID: id, body: body, authorization: request.headers[.authorization])
            }
        }
        // Apple's `{originalTransactionId}`; Hummingbird wants one parameter name per position in the path.
        router.put("inApps/v1/transactions/{transactionId}/appAccountToken") { request, context in
            let id = try context.parameters.require("transactionId")
            let body = Data(try await request.body.collect(upTo: 64 * 1024).readableBytesView)
            return await Self.answer { () async throws(AppStoreServerAPIError) in
                try await api.setAppAccountToken(
                    originalTransactionID: id, body: body,
                    authorization: request.headers[.authorization])
            }
        }
        router.post("inApps/v1/transactions/{transactionId}/finish") { request, context in
            let id = try context.parameters.require("transactionId")
            return await Self.answer { () async throws(AppStoreServerAPIError) in
                try await api.finishTransaction(transactionID: id, authorization: request.headers[.authorization])
            }
        }
        addNotificationRoutes(to: router)
        addControlRoutes(to: router)
    }

    private func addControlRoutes<Context: RequestContext>(to router: Router<Context>) {
        let api = api
        let group = router.group("simulator/v1/server-api").add(middleware: SimulatorErrorMiddleware())
        group.post("keys") { request, _ -> HTTPResponse.Status in
            let registration = try await ControlRequestBody.decode(KeyRegistration.self, from: request)
            guard let publicKey = try? P256.Signing.PublicKey(pemRepresentation: registration.publicKeyPEM) else {
                throw SimulatorError(.invalidRequest, "publicKeyPEM is not a P-256 public key in PEM")
            }
            guard !registration.keyId.isEmpty, !registration.issuerId.isEmpty, !registration.bundleId.isEmpty else {
                throw SimulatorError(.invalidRequest, "issuerId, keyId and bundleId are required")
            }
            await api.register(
                .init(
                    issuerId: registration.issuerId, keyId: registration.keyId,
                    bundleId: registration.bundleId, publicKey: publicKey))
            return .noContent
        }
        group.post("faults") { request, _ -> HTTPResponse.Status in
            await api.injectFaults(try await ControlRequestBody.decode([ServerAPIFault].self, from: request))
            return .noContent
        }
        group.get("consumption/{transactionId}") { _, context -> Response in
            let id = try context.parameters.require("transactionId")
            guard let consumption = await api.consumptionInformation(transactionID: id) else {
                throw SimulatorError(.notFound, "no consumption information for transaction \(id)")
            }
            return Self.json(consumption)
        }
        group.get("consumption/v2/{transactionId}") { _, context -> Response in
            let id = try context.parameters.require("transactionId")
            guard let consumption = await api.consumptionInformationV2(transactionID: id) else {
                throw SimulatorError(.notFound, "no version 2 consumption information for transaction \(id)")
            }
            return Self.json(consumption)
        }
        group.get("purchases/{transactionId}") { _, context -> Response in
            let id = try context.parameters.require("transactionId")
            guard let purchase = await api.store.purchase(transactionID: id) else {
                throw SimulatorError(.notFound, "no transaction \(id)")
            }
            return Self.json(purchase)
        }
    }

    /// Runs one endpoint and renders its answer, or its error in Apple's shape.
    public static func answer(
        status: HTTPResponse.Status = .ok,
        _ body: () async throws(AppStoreServerAPIError) -> some Encodable
    ) async -> Response {
        do {
            return json(try await body(), status: status)
        } catch {
            return response(for: error)
        }
    }

    /// Runs one endpoint that answers with no body.
    public static func answer(
        status: HTTPResponse.Status = .ok,
        _ body: () async throws(AppStoreServerAPIError) -> Void
    ) async -> Response {
        do {
            try await body()
            return Response(status: status)
        } catch {
            return response(for: error)
        }
    }

    /// A JSON answer with `Content-Type: application/json` exactly (Apple's Python library insists on it).
    public static func json(_ value: some Encodable, status: HTTPResponse.Status = .ok) -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let body = try? encoder.encode(value) else {
            return response(for: .init(.generalInternal, "An unknown error occurred.", httpStatus: 500))
        }
        return Response(
            status: status, headers: [.contentType: "application/json"],
            body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }

    /// An error as Apple answers it: a bare 401 with `WWW-Authenticate`, or `{"errorCode", "errorMessage"}`, with
    /// `Retry-After` when the error says how long to wait.
    public static func response(for error: AppStoreServerAPIError) -> Response {
        let status = error.httpStatus ?? 500
        if status == 401 {
            let reason = error.message.replacingOccurrences(of: "\"", with: "'")
            let challenge = #"Bearer error="invalid_token", error_description="\#(reason)""#
            return Response(status: .unauthorized, headers: [.wwwAuthenticate: challenge])
        }
        var headers: HTTPFields = [.contentType: "application/json"]
        if let retryAfter = error.retryAfter {
            let (seconds, attoseconds) = retryAfter.components
            headers[.retryAfter] = String(seconds + (attoseconds > 0 ? 1 : 0))
        }
        let errorCode = error.apiErrorCode ?? (status >= 500 ? 5_000_000 : 4_000_000)
        let body =
            (try? JSONEncoder().encode(
                AppStoreServerAPI.ErrorResponse(
                    errorCode: errorCode,
                    errorMessage: error.message))) ?? Data()
        return Response(status: .init(code: status), headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }
}
