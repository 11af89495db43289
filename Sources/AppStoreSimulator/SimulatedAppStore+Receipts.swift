import AppStoreVerification
import Foundation
import PurserCore

/// A receipt a device holds: what it carries (but its creation date), its signed bytes and its transactions.
struct IssuedReceipt: Sendable {
    var contents: AppReceipt
    var der: [UInt8]
    var transactionIDs: [String]
}

extension SimulatedAppStore {
    /// The app receipt a device holds now, as StoreKit builds it: every unfinished consumable of the device plus all
    /// its non-consumables; finished consumables have dropped out. Sandbox devices get "ProductionSandbox" receipts.
    /// A device keeps the same receipt until what it carries changes.
    public func receipt(deviceId: String, bundleID: String? = nil) throws(SimulatorError) -> (
        der: [UInt8], transactionIDs: [String]
    ) {
        let kept = receiptPurchases(deviceId: deviceId)
        let last = orderByDevice[deviceId]?.last.map { records[$0] }
        let environment = last?.transaction.environment ?? configuration.defaultEnvironment.rawValue
        let date = { (milliseconds: Int64?) in milliseconds.map(Date.init(appStoreMilliseconds:)) }
        let receipt = AppReceipt(
            bundleId: bundleID ?? last?.transaction.bundleId ?? configuration.defaultBundleID,
            applicationVersion: "1.0", originalApplicationVersion: "1.0", creationDate: now(),
            environment: environment == AppStoreEnvironment.production.rawValue ? "Production" : "ProductionSandbox",
            inAppPurchases: kept.map { purchase in
                let t = purchase.transaction
                return InAppPurchaseReceipt(
                    quantity: t.quantity ?? 1, productId: t.productId, transactionId: t.transactionId,
                    originalTransactionId: t.originalTransactionId, purchaseDate: date(t.purchaseDate),
                    originalPurchaseDate: date(t.originalPurchaseDate), cancellationDate: date(t.revocationDate))
            })
        // The device keeps its receipt file until a purchase, a finish or a refund changes what it carries, as
        // StoreKit does: the same request again gets the same bytes (and Apple's RSA signature is not made anew).
        var contents = receipt
        contents.creationDate = nil
        if let kept = receiptsByDevice[deviceId], kept.contents == contents { return (kept.der, kept.transactionIDs) }
        do {
            let issued = IssuedReceipt(
                contents: contents, der: try receiptIssuer.issue(receipt, signingTime: now()),
                transactionIDs: kept.map(\.transaction.transactionId))
            receiptsByDevice[deviceId] = issued
            return (issued.der, issued.transactionIDs)
        } catch {
            throw SimulatorError(.internal, "cannot sign the receipt: \(error)")
        }
    }

    /// Queues faults for the next `verifyReceipt` calls.
    public func injectVerifyReceiptFaults(_ faults: [VerifyReceiptFault]) {
        verifyReceiptFaults.append(contentsOf: faults)
    }

    /// Answers a `verifyReceipt` call at the production or sandbox endpoint the way Apple does. Returns the HTTP
    /// answer and how long to wait before sending it.
    public func verifyReceipt(body: Data, endpoint: AppStoreEnvironment) async -> (
        response: AppStoreHTTPResponse, delay: Duration
    ) {
        var delay = Duration.zero
        if !verifyReceiptFaults.isEmpty {
            switch verifyReceiptFaults.removeFirst() {
            case .status(let status):
                return (Self.answer(VerifyReceiptResponse(status: status, environment: nil, receipt: nil)), .zero)
            case .http(let status): return (AppStoreHTTPResponse(status: status, body: Data()), .zero)
            case .delay(let seconds): delay = .milliseconds(Int64(seconds * 1000))
            }
        }
        guard let request = try? JSONDecoder().decode(VerifyReceiptRequest.self, from: body) else {
            return (Self.answer(VerifyReceiptResponse(status: 21000, environment: nil, receipt: nil)), delay)
        }
        guard let der = Data(base64Encoded: request.receiptData, options: .ignoreUnknownCharacters),
            let parsed = try? AppReceiptParser.parse(der: Array(der))
        else {
            return (Self.answer(VerifyReceiptResponse(status: 21002, environment: nil, receipt: nil)), delay)
        }
        guard await receiptIssuer.isAuthentic(Array(der), at: now()) else {
            return (Self.answer(VerifyReceiptResponse(status: 21003, environment: nil, receipt: nil)), delay)
        }
        let isSandboxReceipt = parsed.environment != "Production"
        if endpoint == .production, isSandboxReceipt {
            return (Self.answer(VerifyReceiptResponse(status: 21007, environment: "Sandbox", receipt: nil)), delay)
        }
        if endpoint == .sandbox, !isSandboxReceipt {
            return (Self.answer(VerifyReceiptResponse(status: 21008, environment: "Production", receipt: nil)), delay)
        }
        let inApp = parsed.inAppPurchases.map { entry in
            // Apple answers with its current record: a refund after the receipt was issued shows up here.
            let known = record(entry.transactionId)?.transaction
            return VerifyReceiptResponse.InApp(
                quantity: String(entry.quantity), productId: entry.productId, transactionId: entry.transactionId,
                originalTransactionId: entry.originalTransactionId,
                purchaseDateMs: Self.milliseconds(entry.purchaseDate),
                originalPurchaseDateMs: Self.milliseconds(entry.originalPurchaseDate),
                cancellationDateMs: known?.revocationDate.map(String.init)
                    ?? Self.milliseconds(entry.cancellationDate),
                cancellationReason: known?.revocationReason.map(String.init),
                appAccountToken: known?.appAccountToken)
        }
        let receipt = VerifyReceiptResponse.Receipt(
            bundleId: parsed.bundleId, applicationVersion: parsed.applicationVersion,
            originalApplicationVersion: parsed.originalApplicationVersion,
            receiptCreationDateMs: Self.milliseconds(parsed.creationDate), inApp: inApp)
        return (Self.answer(VerifyReceiptResponse(status: 0, environment: endpoint.rawValue, receipt: receipt)), delay)
    }

    private static func milliseconds(_ date: Date?) -> String? {
        date.map { String($0.appStoreMilliseconds) }
    }

    private static func answer(_ response: VerifyReceiptResponse) -> AppStoreHTTPResponse {
        AppStoreHTTPResponse(status: 200, body: (try? JSONEncoder().encode(response)) ?? Data())
    }
}
