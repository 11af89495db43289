import Foundation
import PurserCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The app's side of the Purser HTTP API (see `openapi.yaml`): orders, submissions, the product list, the wallet and
/// its spends. It only
/// reports what happened; retry and finish policy live in `PurchaseCoordinator`.
public final class PurserAPIClient: Sendable {
    /// The server's base URL (`https://purser.example.com`).
    public let baseURL: URL
    private let transport: any PurserHTTPTransport
    private let headers: [String: String]

    /// - Parameters:
    ///   - baseURL: the server, e.g. `https://purser.example.com`.
    ///   - timeout: per request; a time-out is a network error (the transaction stays unfinished).
    ///   - headers: sent with every request (an app version, a device id for the server's logs). A `traceparent`
    ///     among them is replaced: every request sends its own (`TraceContext`).
    ///   - app: the app's bundle id, sent as `X-Purser-App` so that a Purser serving several apps knows whose
    ///     purchase this is; `nil` sends none. The default, `Bundle.main.bundleIdentifier`, is nil in a command-line
    ///     tool and under `swift test` on Linux: pass the id there.
    public convenience init(
        baseURL: URL, timeout: TimeInterval = 15, headers: [String: String] = [:],
        app: String? = Bundle.main.bundleIdentifier
    ) {
        self.init(baseURL: baseURL, headers: headers, app: app, transport: URLSessionTransport(timeout: timeout))
    }

    /// A client whose requests go through `transport` (which owns the time-out); `app` as above.
    public init(
        baseURL: URL, headers: [String: String] = [:], app: String? = Bundle.main.bundleIdentifier,
        transport: any PurserHTTPTransport
    ) {
        self.baseURL = baseURL
        var headers = headers
        if let app { headers[Self.appHeader] = app }
        self.headers = headers
        self.transport = transport
    }

    /// The header that names the app.
    public static let appHeader = "X-Purser-App"

    /// `POST /v1/orders`. Every call takes the `traceID` of the purchase or spend it belongs to: its request's
    /// `traceparent` carries that trace id (a new trace when nil or not a valid trace id) and a span id of its own.
    public func createOrder(
        productID: String, quantity: Int, as user: PurserSession, traceID: String? = nil
    ) async throws(PurserAPIError) -> OrderResponse {
        try await decode(
            OrderResponse.self,
            from: send(
                "POST", "v1/orders",
                body: CreateOrderRequest(productId: productID, quantity: quantity),
                as: user, traceID: traceID))
    }

    /// `POST /v1/orders/{id}/cancel`: StoreKit reported that the payment never happened.
    public func cancelOrder(
        _ id: OrderID, reason: String, as user: PurserSession, traceID: String? = nil
    ) async throws(PurserAPIError) -> OrderResponse {
        try await decode(
            OrderResponse.self,
            from: send(
                "POST", "v1/orders/\(id)/cancel",
                body: CancelOrderRequest(reason: reason), as: user, traceID: traceID))
    }

    /// `POST /v1/transactions`: a 200 is a durable decision; anything else throws.
    public func submit(
        _ request: SubmitTransactionRequest, as user: PurserSession, traceID: String? = nil
    ) async throws(PurserAPIError) -> DecisionResponse {
        try await decode(
            DecisionResponse.self, from: send("POST", "v1/transactions", body: request, as: user, traceID: traceID))
    }

    /// `POST /v1/wallet/spend`: a 200 is applied (now or, `replayed`, before); anything else throws.
    public func spend(
        _ request: WalletSpendRequest, as user: PurserSession, traceID: String? = nil
    ) async throws(PurserAPIError) -> WalletTransactionResponse {
        try await decode(
            WalletTransactionResponse.self,
            from: send("POST", "v1/wallet/spend", body: request, as: user, traceID: traceID))
    }

    /// `GET /v1/wallet`: the user's balances, holds and what they own.
    public func wallet(as user: PurserSession) async throws(PurserAPIError) -> WalletResponse {
        try await decode(
            WalletResponse.self, from: send("GET", "v1/wallet", body: Optional<CreateOrderRequest>.none, as: user))
    }

    /// `GET /v1/products`; `nil` when the list still has `version` (304 Not Modified).
    public func products(ifNoneMatch version: String?, as user: PurserSession) async throws(PurserAPIError)
        -> ProductListResponse?
    {
        let headers = version.map { ["If-None-Match": "\"\($0)\""] } ?? [:]
        let (data, status) = try await send(
            "GET", "v1/products", body: Optional<CreateOrderRequest>.none,
            headers: headers, as: user)
        if status == 304 { return nil }
        return try decode(ProductListResponse.self, from: (data, status))
    }

    private func send(
        _ method: String, _ path: String, body: (some Encodable)?, headers extra: [String: String] = [:],
        as user: PurserSession, traceID: String? = nil
    ) async throws(PurserAPIError) -> (Data, Int) {
        var request = URLRequest(url: baseURL.appendingPathComponent(path))
        request.httpMethod = method
        do {
            for (name, value) in try await user.headers() { request.setValue(value, forHTTPHeaderField: name) }
        } catch {
            throw PurserAPIError(kind: .unauthenticated, code: "unauthenticated", message: "no credential: \(error)")
        }
        for (name, value) in headers.merging(extra, uniquingKeysWith: { _, call in call }) {
            request.setValue(value, forHTTPHeaderField: name)
        }
        request.setValue(TraceContext(newSpanIn: traceID).traceparent, forHTTPHeaderField: TraceContext.header)
        if let body {
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.httpBody = try? JSONEncoder().encode(body)
        }
        let data: Data
        let status: Int
        do {
            (data, status) = try await transport.send(request)
        } catch let error as PurserAPIError {
            throw error
        } catch {
            throw PurserAPIError(kind: .network, code: "network", message: error.localizedDescription)
        }
        if (200..<300).contains(status) || status == 304 { return (data, status) }
        let error = try? JSONDecoder().decode(APIErrorResponse.self, from: data).error
        if status == 429 || status >= 500 {
            throw PurserAPIError(
                kind: .unavailable, status: status, code: error?.code ?? "server_unavailable",
                message: "the server could not answer now")
        }
        throw PurserAPIError(
            kind: .refused, status: status, code: error?.code ?? "http_\(status)",
            message: error?.message ?? "the server refused the request")
    }

    private func decode<T: Decodable>(_ type: T.Type, from answer: (Data, Int)) throws(PurserAPIError) -> T {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        do {
            return try decoder.decode(type, from: answer.0)
        } catch {
            throw PurserAPIError(
                kind: .badResponse, status: answer.1, code: "bad_response",
                message: "unexpected \(T.self) body: \(error)")
        }
    }
}
