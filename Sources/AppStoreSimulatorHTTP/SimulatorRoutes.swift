import AppStoreSimulator
import AppStoreVerification
import Foundation
import Hummingbird
import PurserCore

/// The simulator's HTTP control API, for tests and demos, under `/simulator/v1`:
/// - `POST /purchases` `{productId, bundleId?, quantity?, appAccountToken?, environment?, type?}` → the signed transaction
/// - `POST /transactions/{id}/refund` `{reason?, revocationType?, revocationPercentage?}` → the revoked signed
///   transaction and a signed REFUND notification; `revocationPercentage` (milliunits) makes it a partial refund of
///   that share, and partial refunds add up in the signed `revocationPercentage`
/// - `GET /transactions`, `GET /transactions/{id}` (with `appleOrderId`, the order id of the customer's receipt)
/// - `GET /root-certificate` → the simulator's root (DER), to trust it elsewhere
/// - `GET /receipt-root-certificate` → the root of its RSA receipt-signing chain (DER), for local receipt checks
/// - `GET /products` → the catalog loaded from a `.storekit` file (`{"products": [...]}`, empty without one)
/// - `POST /transactions/{id}/finish` → the device finished it (a consumable leaves its receipt)
/// - `GET /devices/{deviceId}/receipt` → the device's app receipt, base64
/// - `GET /devices/{deviceId}/app-transaction?environment=&bundleId=` → the app's signed app transaction on that
///   device (StoreKit's `AppTransaction.shared`), with its `appTransactionId`
/// - `POST /transactions/{id}/refund-reversal`, `/refund-decline`, `/consumption-request` → the matching notification
/// - `GET /notifications`; `POST /notifications/deliver` (everything pending, now); `POST /notifications/faults`
///   `{"lose": N, "pause": true|false}`
/// - `POST /verify-receipt/faults` `{"faults": [{"status": {"_0": 21005}}, {"http": {"_0": 503}}, {"delay": {"seconds": 3}}]}`
///
/// and Apple's `verifyReceipt` at `POST /simulator/production/verifyReceipt` and `/simulator/sandbox/verifyReceipt`.
public struct SimulatorRoutes: Sendable {
    /// The answer to a purchase, a refund or a single-transaction lookup.
    public struct SignedTransactionResponse: ResponseEncodable, Decodable, Sendable {
        public var transactionId: String
        public var signedTransaction: String
        public var transaction: JWSTransaction
        /// The REFUND notification, for refunds.
        public var signedNotification: String?
        /// The order id on the customer's e-mail receipt (what support searches for), where known.
        public var appleOrderId: String?
    }

    public struct TransactionList: ResponseEncodable, Decodable, Sendable {
        public var transactions: [JWSTransaction]
    }

    /// A refund: Apple's `revocationReason`, `revocationType` and, for a partial refund, this refund's share of the
    /// purchase in milliunits (the signed transaction carries the share refunded so far).
    struct RefundRequest: Decodable {
        var reason: Int?
        var revocationType: RevocationType?
        var revocationPercentage: Int?
    }

    /// A device's current app receipt.
    public struct DeviceReceipt: ResponseEncodable, Decodable, Sendable {
        public var deviceId: String
        /// Base64 of the DER PKCS#7 receipt, as the app would send it.
        public var receipt: String
        public var transactionIds: [String]
    }

    /// The answer to an app transaction request: what `AppTransaction.shared` holds on that device.
    public struct DeviceAppTransaction: ResponseEncodable, Decodable, Sendable {
        public var deviceId: String
        public var appTransactionId: String?
        public var signedAppTransaction: String
    }

    struct FaultsRequest: Decodable {
        var faults: [VerifyReceiptFault]
    }

    struct NotificationFaults: Decodable {
        /// Lose this many delivery attempts.
        var lose: Int?
        /// Hold every notification back (true) or resume (false).
        var pause: Bool?
    }

    public struct NotificationList: ResponseEncodable, Decodable, Sendable {
        public var notifications: [SentNotification]
    }

    /// A product of the simulator's catalog.
    public struct CatalogProduct: Codable, Sendable, Hashable {
        public var productId: String
        /// Apple's spelling: "Consumable" or "Non-Consumable".
        public var type: String
        public var displayName: String
        /// Milliunits, e.g. 990 for 0.99.
        public var price: Int64?
        /// The ISO 4217 code of the price's currency (the file's `settings._locale`'s).
        public var currency: String?
    }

    public struct CatalogList: ResponseEncodable, Decodable, Sendable {
        public var products: [CatalogProduct]
    }

    public let store: SimulatedAppStore

    public init(store: SimulatedAppStore) {
        self.store = store
    }

    /// Adds the control API to `router`.
    public func addRoutes<Context: RequestContext>(to router: Router<Context>) {
        let group = router.group("simulator/v1").add(middleware: SimulatorErrorMiddleware())
        group.post("purchases") { request, context -> EditedResponse<SignedTransactionResponse> in
            let purchase = try await ControlRequestBody.decode(SimulatedAppStore.PurchaseRequest.self, from: request)
            let (transaction, signed) = try await store.purchase(purchase)
            return EditedResponse(
                status: .created,
                response: .init(
                    transactionId: transaction.transactionId, signedTransaction: signed, transaction: transaction))
        }
        group.post("transactions/{id}/refund") { request, context -> SignedTransactionResponse in
            let id = try context.parameters.require("id")
            let body = try await request.body.collect(upTo: ControlRequestBody.limit)
            let refund =
                body.readableBytes == 0
                ? RefundRequest() : try ControlRequestBody.decode(RefundRequest.self, from: body)
            let (transaction, signed, notification) = try await store.refund(
                transactionID: id, reason: refund.reason ?? 0, type: refund.revocationType,
                percentage: refund.revocationPercentage)
            return .init(
                transactionId: id, signedTransaction: signed, transaction: transaction, signedNotification: notification
            )
        }
        group.get("transactions") { _, _ in
            TransactionList(transactions: await store.transactions())
        }
        group.get("transactions/{id}") { _, context -> SignedTransactionResponse in
            let id = try context.parameters.require("id")
            let (transaction, signed) = try await store.transaction(id)
            return .init(
                transactionId: id, signedTransaction: signed, transaction: transaction,
                appleOrderId: await store.purchase(transactionID: id)?.appleOrderId)
        }
        group.post("transactions/{id}/finish") { _, context -> HTTPResponse.Status in
            try await store.finish(transactionID: try context.parameters.require("id"))
            return .noContent
        }
        group.get("devices/{deviceId}/receipt") { _, context -> DeviceReceipt in
            let device = try context.parameters.require("deviceId")
            let (der, ids) = try await store.receipt(deviceId: device)
            return DeviceReceipt(deviceId: device, receipt: Data(der).base64EncodedString(), transactionIds: ids)
        }
        group.get("devices/{deviceId}/app-transaction") { request, context -> DeviceAppTransaction in
            let device = try context.parameters.require("deviceId")
            var environment: AppStoreEnvironment?
            if let spelled = request.uri.queryParameters.get("environment") {
                guard let known = AppStoreEnvironment(rawValue: spelled) else {
                    let known = AppStoreEnvironment.allCases.map(\.rawValue).joined(separator: ", ")
                    throw SimulatorError(.invalidRequest, "environment must be one of \(known)")
                }
                environment = known
            }
            let (payload, signed) = try await store.appTransaction(
                deviceId: device, bundleID: request.uri.queryParameters.get("bundleId"), environment: environment)
            return DeviceAppTransaction(
                deviceId: device, appTransactionId: payload.appTransactionId, signedAppTransaction: signed)
        }
        group.post("verify-receipt/faults") { request, context -> HTTPResponse.Status in
            let body = try await ControlRequestBody.decode(FaultsRequest.self, from: request)
            await store.injectVerifyReceiptFaults(body.faults)
            return .noContent
        }
        for (path, endpoint) in [
            ("simulator/production/verifyReceipt", AppStoreEnvironment.production),
            ("simulator/sandbox/verifyReceipt", .sandbox),
        ] {
            router.post(RouterPath(path)) { request, _ -> Response in
                let body = try await request.body.collect(upTo: 8 * 1024 * 1024)
                let (answer, delay) = await store.verifyReceipt(body: Data(body.readableBytesView), endpoint: endpoint)
                if delay > .zero { try await Task.sleep(for: delay) }
                return Response(
                    status: .init(code: answer.status), headers: [.contentType: "application/json"],
                    body: .init(byteBuffer: ByteBuffer(bytes: answer.body)))
            }
        }
        for (path, type) in [("refund-decline", "REFUND_DECLINED"), ("consumption-request", "CONSUMPTION_REQUEST")] {
            group.post(RouterPath("transactions/{id}/\(path)")) { _, context -> HTTPResponse.Status in
                try await store.notify(type, transactionID: try context.parameters.require("id"))
                return .accepted
            }
        }
        group.post("transactions/{id}/refund-reversal") { _, context -> HTTPResponse.Status in
            try await store.reverseRefund(transactionID: try context.parameters.require("id"))
            return .accepted
        }
        group.get("notifications") { _, _ in
            NotificationList(notifications: try await store.notificationHistory())
        }
        group.post("notifications/deliver") { _, _ in
            ["delivered": await store.deliverDueNotifications(force: true)]
        }
        group.post("notifications/faults") { request, context -> HTTPResponse.Status in
            let faults = try await ControlRequestBody.decode(NotificationFaults.self, from: request)
            if let lose = faults.lose { await store.loseNotifications(lose) }
            if let pause = faults.pause { await store.pauseNotifications(pause) }
            return .noContent
        }
        group.get("products") { _, _ in
            CatalogList(
                products: (store.configuration.catalog?.products ?? []).map {
                    CatalogProduct(
                        productId: $0.id, type: $0.kind.appleType, displayName: $0.displayName,
                        price: $0.priceMilliunits, currency: store.configuration.catalog?.currencyCode)
                })
        }
        group.get("root-certificate") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "application/pkix-cert"],
                body: .init(byteBuffer: ByteBuffer(bytes: store.signer.authority.rootDER)))
        }
        group.get("receipt-root-certificate") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "application/pkix-cert"],
                body: .init(byteBuffer: ByteBuffer(bytes: store.receiptAuthority.rootDER)))
        }
    }
}
