import Foundation
import Purser
import PurserCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A stand-in for `purser serve` behind the SDK's transport seam: answers orders, cancels, submissions (a delivery),
/// the wallet, the product list and spends as the server would, fails what the test tells it to, and records every
/// request with the `traceparent` it carried.
actor RecordingServer: PurserHTTPTransport {
    /// One request as the server saw it.
    struct Request: Sendable {
        var method: String
        /// The path, e.g. `/v1/transactions`.
        var path: String
        /// The `traceparent` header as sent.
        var traceparent: String?
        /// The header parsed; nil when missing or invalid.
        var trace: TraceContext? { traceparent.flatMap(TraceContext.init(traceparent:)) }
    }

    /// A server for `https://purser.test`.
    static let baseURL = URL(string: "https://purser.test")!

    private(set) var requests: [Request] = []
    /// The next this many submissions answer 503.
    var failingSubmissions = 0
    /// The next this many spends get no answer (a dropped connection).
    var unansweredSpends = 0

    func failSubmissions(_ count: Int) { failingSubmissions = count }
    func dropSpends(_ count: Int) { unansweredSpends = count }

    /// The requests to `path`, in order.
    func requests(to path: String) -> [Request] { requests.filter { $0.path == path } }

    func send(_ request: URLRequest) async throws -> (body: Data, status: Int) {
        let path = request.url?.path ?? ""
        let method = request.httpMethod ?? "GET"
        requests.append(
            Request(method: method, path: path, traceparent: request.value(forHTTPHeaderField: "traceparent")))
        let body = request.httpBody ?? Data()
        switch (method, path) {
        case ("POST", "/v1/orders"):
            let asked = try JSONDecoder().decode(CreateOrderRequest.self, from: body)
            return (try order(OrderID.random(), product: asked.productId, quantity: asked.quantity ?? 1), 200)
        case ("POST", let cancel) where cancel.hasSuffix("/cancel"):
            let id = OrderID(String(cancel.split(separator: "/")[2]))!
            return (try order(id, product: "gold60", quantity: 1), 200)
        case ("POST", "/v1/transactions"):
            if failingSubmissions > 0 {
                failingSubmissions -= 1
                return (Data(#"{"error":{"code":"unavailable","message":"try later"}}"#.utf8), 503)
            }
            let submitted = try JSONDecoder().decode(SubmitTransactionRequest.self, from: body)
            let answer = DecisionResponse(
                transactionId: submitted.transactionId, decision: .delivered,
                orderId: submitted.orderId.flatMap { OrderID($0) }, grants: Grants(["gold": 60]))
            return (try JSONEncoder().encode(answer), 200)
        case ("GET", "/v1/wallet"):
            return (try JSONEncoder().encode(WalletResponse(userId: "ann", balances: ["gold": 60])), 200)
        case ("GET", "/v1/products"):
            let list = ProductListResponse(
                version: "1", products: [.init(id: "gold60", type: .consumable, grants: Grants(["gold": 60]))])
            return (try JSONEncoder().encode(list), 200)
        case ("POST", "/v1/wallet/spend"):
            if unansweredSpends > 0 {
                unansweredSpends -= 1
                throw URLError(.networkConnectionLost)
            }
            let spend = try JSONDecoder().decode(WalletSpendRequest.self, from: body)
            let answer = WalletTransactionResponse(
                id: spend.id, userId: "ann", amounts: spend.amounts, balances: ["gold": 10], replayed: false)
            return (try JSONEncoder().encode(answer), 200)
        default:
            return (Data(#"{"error":{"code":"not_found","message":"no route"}}"#.utf8), 404)
        }
    }

    private func order(_ id: OrderID, product: String, quantity: Int) throws -> Data {
        let order: [String: Any] = [
            "orderId": id.description, "appAccountToken": id.description, "productId": product,
            "quantity": quantity, "state": "created", "createdAt": "2026-01-01T00:00:00Z",
        ]
        return try JSONSerialization.data(withJSONObject: order)
    }
}
