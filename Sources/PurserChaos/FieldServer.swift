import AppStoreSimulator
import AppStoreVerification
import PurserCore

/// The server half of a field flow, as tutorials and many games write it: verify the receipt with Apple, then
/// credit. Each baseline has one of the field's well-known flaws switched on; none hears Apple's notifications or
/// reconciles.
actor FieldServer {
    enum Answer: Sendable {
        /// Apple confirmed the receipt; the client finishes.
        case ok
        /// Apple's answer was not final; the client keeps the transaction.
        case retryLater
        /// Apple refused the receipt; the client finishes.
        case refused
    }

    let flaw: ChaosStrategy
    private let receipts: VerifyReceiptClient
    /// Accounts credited, per transaction id, one entry per credit.
    private var credits: [String: [String]] = [:]
    private var balances: [String: Int64] = [:]
    /// Transactions the server answered about (for the finished-before-a-decision check).
    private var decided: Set<String> = []

    init(flaw: ChaosStrategy, appStore: SimulatedAppStore) {
        self.flaw = flaw
        self.receipts = VerifyReceiptClient(
            configuration: .init(
                productionURL: SimulatorTransport.productionVerifyReceiptURL,
                sandboxURL: SimulatorTransport.sandboxVerifyReceiptURL, timeout: .seconds(2)),
            transport: SimulatorTransport(store: appStore))
    }

    /// `POST /verify {receipt, transactionId, applicationUsername}` from a signed-in `submitter`.
    func submit(receipt: String, transactionID: String, applicationUsername: String?, submitter: String) async -> Answer
    {
        let receiptBody: VerifyReceiptResponse.Receipt
        switch await receipts.verify(receipt: receipt) {
        case .verified(let body, _): receiptBody = body
        case .retryLater: return .retryLater
        case .rejected: return .refused
        }
        decided.insert(transactionID)
        let candidates =
            flaw == .firstInAppOnly
            ? Array(receiptBody.inApp.prefix(1)) : receiptBody.inApp.filter { $0.transactionId == transactionID }
        for entry in candidates where entry.cancellationDateMs == nil {
            if flaw != .noDeduplication, credits[entry.transactionId] != nil { continue }
            let owner: String
            if flaw == .trustApplicationUsername {
                guard let named = applicationUsername else { continue }
                owner = named
            } else {
                owner = applicationUsername ?? submitter
            }
            credits[entry.transactionId, default: []].append(owner)
            balances[owner, default: 0] +=
                InvariantChecker.amount(of: entry.productId)
                * Int64(Int(entry.quantity) ?? 1)
        }
        return .ok
    }

    func hasDecided(_ transactionID: String) -> Bool { decided.contains(transactionID) }
    func credits(of transactionID: String) -> [String] { credits[transactionID] ?? [] }
    func balance(of user: String) -> Int64 { balances[user] ?? 0 }
}
