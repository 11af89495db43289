import AppStoreVerification
import Foundation
import PurserCore

/// The JSON bodies of every route, decoded as the server decodes them (`Request.decodeJSON`) and checked as the
/// services check them: order ids, blank and length rules, and a wallet change's amounts through the wallet's rule at
/// the edges of `Int64`. The first byte picks the route; the rest is the body.
/// Any answer but a crash is fine.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzBodies(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    withInput(start, count) { bytes in
        guard let route = bytes.first else { return }
        let body = Data(bytes.dropFirst())
        let decoder = JSONDecoder()
        switch route % 6 {
        case 0:
            if let order = try? decoder.decode(CreateOrderRequest.self, from: body) {
                _ = (order.productId.isBlank, order.quantity.map { (1...10).contains($0) })
            }
        case 1:
            if let cancel = try? decoder.decode(CancelOrderRequest.self, from: body) {
                _ = (cancel.reason.isBlank, cancel.reason.schemaLength <= 64)
            }
        case 2:
            if let submission = try? decoder.decode(SubmitTransactionRequest.self, from: body) {
                if let hint = submission.orderId, let id = OrderID(hint) {
                    FuzzSupport.require(OrderID(id.description) == id, "an order id survives its description")
                }
            }
        case 3:
            if let notification = try? decoder.decode(NotificationBody.self, from: body) {
                _ = SignedDataVerifier.unverifiedNotificationUUID(of: notification.signedPayload)
            }
        case 5:
            // A spend or deposit as the wallet routes decode it, applied by the wallet's rule to edge balances.
            if let change = try? decoder.decode(WalletBody.self, from: body) {
                let request = WalletTransaction.Request(
                    id: change.id, userID: "u", amounts: change.amounts, reason: change.reason, cause: "admin")
                for balance in [Int64.min, -1, 0, Amounts.walletLimit, .max] {
                    let balances = Dictionary(uniqueKeysWithValues: change.amounts.keys.map { ($0, balance) })
                    _ = try? WalletRules.plan(
                        request, existing: nil, balances: balances, held: balances,
                        now: Date(timeIntervalSince1970: 0))
                }
            }
        default:
            if let grant = try? decoder.decode(GrantRequest.self, from: body) {
                _ = (grant.userId.isBlank, grant.reason.isBlank, grant.transactionId.utf8.allSatisfy { $0 < 0x80 })
            }
        }
    }
}

/// The admin API's and the notification route's bodies, as `AdminRoutes` and `PurserRoutes` declare them.
struct GrantRequest: Decodable {
    var transactionId: String
    var userId: String
    var reason: String
}

struct WalletBody: Decodable {
    var id: String
    var amounts: [String: Int64]
    var reason: String
}

struct NotificationBody: Decodable {
    var signedPayload: String
}
