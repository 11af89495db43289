import Foundation
import PurserCore

/// Apple's `verifyReceipt`: production first, the sandbox on 21007 (and production again on 21008), 21002 retried
/// once; anything Apple cannot answer now (21005, 21009, 21100–21199, `is-retryable`, HTTP 5xx, time-outs) is
/// `retryLater`, never a rejection. See `VerifyReceiptStatus` for the whole table.
public struct VerifyReceiptClient: Sendable {
    public struct Configuration: Sendable {
        public var productionURL: URL
        public var sandboxURL: URL
        /// The app's shared secret (App Store Connect); a secret, never logged.
        public var sharedSecret: String?
        public var timeout: Duration

        public static let appleProduction = URL(string: "https://buy.itunes.apple.com/verifyReceipt")!
        public static let appleSandbox = URL(string: "https://sandbox.itunes.apple.com/verifyReceipt")!

        public init(
            productionURL: URL = appleProduction, sandboxURL: URL = appleSandbox, sharedSecret: String? = nil,
            timeout: Duration = .seconds(10)
        ) {
            self.productionURL = productionURL
            self.sandboxURL = sandboxURL
            self.sharedSecret = sharedSecret
            self.timeout = timeout
        }
    }

    /// What Apple said about a receipt.
    public enum Outcome: Hashable, Sendable {
        case verified(VerifyReceiptResponse.Receipt, environment: AppStoreEnvironment)
        /// Nothing decided; try again later. `reason` is a stable code.
        case retryLater(reason: String, detail: String)
        /// Apple refused the receipt for good.
        case rejected(VerifyReceiptStatus)
    }

    public let configuration: Configuration
    private let transport: any AppStoreHTTPTransport

    public init(configuration: Configuration, transport: any AppStoreHTTPTransport) {
        self.configuration = configuration
        self.transport = transport
    }

    /// The same endpoints and transport with another app's shared secret.
    public func withSharedSecret(_ sharedSecret: String?) -> VerifyReceiptClient {
        var configuration = configuration
        configuration.sharedSecret = sharedSecret
        return VerifyReceiptClient(configuration: configuration, transport: transport)
    }

    public func verify(receipt base64: String) async -> Outcome {
        let body: Data
        do {
            body = try JSONEncoder().encode(
                VerifyReceiptRequest(receiptData: base64, password: configuration.sharedSecret))
        } catch {
            return .retryLater(reason: "apple_request_failed", detail: "could not encode the request")
        }
        var environment = AppStoreEnvironment.production
        var switchedEnvironment = false
        var retried21002 = false
        while true {
            let url = environment == .sandbox ? configuration.sandboxURL : configuration.productionURL
            let answer: AppStoreHTTPResponse
            do {
                answer = try await transport.post(url, body: body, timeout: configuration.timeout)
            } catch {
                return .retryLater(
                    reason: "apple_unreachable", detail: "no answer from verifyReceipt (\(environment.rawValue))")
            }
            guard answer.status == 200 else {
                return .retryLater(reason: "apple_unavailable", detail: "verifyReceipt answered HTTP \(answer.status)")
            }
            guard let response = try? JSONDecoder().decode(VerifyReceiptResponse.self, from: answer.body) else {
                return .retryLater(reason: "apple_bad_response", detail: "verifyReceipt's answer does not decode")
            }
            let status = VerifyReceiptStatus(code: response.status)
            if response.isRetryable == true, status.disposition != .valid {
                return .retryLater(reason: "apple_unavailable", detail: "verifyReceipt status \(status), retryable")
            }
            switch status.disposition {
            case .valid:
                guard let receipt = response.receipt else {
                    return .retryLater(
                        reason: "apple_bad_response", detail: "verifyReceipt said valid but sent no receipt")
                }
                let answered = response.environment.flatMap(AppStoreEnvironment.init(rawValue:)) ?? environment
                return .verified(receipt, environment: answered)
            case .tryTheSandbox, .tryProduction:
                let target: AppStoreEnvironment = status.disposition == .tryTheSandbox ? .sandbox : .production
                guard !switchedEnvironment, target != environment else {
                    return .retryLater(
                        reason: "apple_unavailable", detail: "verifyReceipt sent the receipt back and forth: \(status)")
                }
                switchedEnvironment = true
                environment = target
            case .retryOnceThenReject:
                guard !retried21002 else { return .rejected(status) }
                retried21002 = true
            case .retryLater:
                return .retryLater(reason: "apple_unavailable", detail: "verifyReceipt status \(status)")
            case .rejected:
                return .rejected(status)
            }
        }
    }
}
