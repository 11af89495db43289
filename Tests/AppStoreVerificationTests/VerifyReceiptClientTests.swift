import AppStoreVerification
import Foundation
import PurserCore
import Testing

/// The `verifyReceipt` fallback and retry rules, against a scripted transport.
@Suite struct VerifyReceiptClientTests {
    /// Answers from a script and records which endpoint each call went to.
    final class ScriptedTransport: AppStoreHTTPTransport, @unchecked Sendable {
        enum Step {
            case answer(status: Int, body: VerifyReceiptResponse)
            case fail
        }
        private let lock = NSLock()
        private var steps: [Step]
        private(set) var calls: [String] = []
        private(set) var bodies: [Data] = []

        init(_ steps: [Step]) { self.steps = steps }

        func send(_ request: AppStoreHTTPRequest) async throws -> AppStoreHTTPResponse {
            let step: Step = lock.withLock {
                calls.append(request.url.host ?? "")
                bodies.append(request.body ?? Data())
                return steps.isEmpty ? .fail : steps.removeFirst()
            }
            switch step {
            case .answer(let status, let response):
                return AppStoreHTTPResponse(status: status, body: try JSONEncoder().encode(response))
            case .fail: throw URLError(.timedOut)
            }
        }
    }

    static let receipt = VerifyReceiptResponse.Receipt(
        bundleId: "com.example.app", applicationVersion: "1", originalApplicationVersion: "1",
        receiptCreationDateMs: "0", inApp: [])

    static func status(_ code: Int, retryable: Bool? = nil) -> ScriptedTransport.Step {
        .answer(
            status: 200,
            body: VerifyReceiptResponse(status: code, environment: nil, receipt: nil, isRetryable: retryable))
    }

    static func valid(_ environment: String) -> ScriptedTransport.Step {
        .answer(status: 200, body: VerifyReceiptResponse(status: 0, environment: environment, receipt: receipt))
    }

    func run(_ steps: [ScriptedTransport.Step]) async -> (VerifyReceiptClient.Outcome, [String]) {
        let transport = ScriptedTransport(steps)
        let client = VerifyReceiptClient(
            configuration: .init(
                productionURL: URL(string: "https://production/verifyReceipt")!,
                sandboxURL: URL(string: "https://sandbox/verifyReceipt")!, sharedSecret: "s"),
            transport: transport)
        return (await client.verify(receipt: "AAAA"), transport.calls)
    }

    @Test func asksProductionFirstAndTheSandboxOn21007() async {
        let (outcome, calls) = await run([Self.status(21007), Self.valid("Sandbox")])
        #expect(outcome == .verified(Self.receipt, environment: .sandbox))
        #expect(calls == ["production", "sandbox"])
    }

    @Test func goesBackToProductionOn21008OnlyOnce() async {
        let (outcome, calls) = await run([Self.status(21007), Self.status(21008)])
        guard case .retryLater = outcome else {
            Issue.record("expected retryLater, got \(outcome)")
            return
        }
        #expect(calls == ["production", "sandbox"], "no ping-pong between the endpoints")
    }

    @Test func retries21002OnceThenRejects() async {
        let (recovered, _) = await run([Self.status(21002), Self.valid("Production")])
        #expect(recovered == .verified(Self.receipt, environment: .production))
        let (outcome, calls) = await run([Self.status(21002), Self.status(21002)])
        #expect(outcome == .rejected(VerifyReceiptStatus(code: 21002)))
        #expect(calls.count == 2)
    }

    @Test func neverRejectsWhatAppleCannotAnswerNow() async {
        for steps in [
            [Self.status(21005)], [Self.status(21009)], [Self.status(21199)], [Self.status(21004)],
            [Self.status(21003, retryable: true)], [.fail],
            [.answer(status: 503, body: VerifyReceiptResponse(status: 0, environment: nil, receipt: nil))],
        ] {
            let (outcome, _) = await run(steps)
            guard case .retryLater = outcome else {
                Issue.record("expected retryLater, got \(outcome)")
                continue
            }
        }
    }

    @Test func rejectsForGood() async {
        for code in [21003, 21010, 21000] {
            let (outcome, _) = await run([Self.status(code)])
            #expect(outcome == .rejected(VerifyReceiptStatus(code: code)))
        }
    }

    @Test func sendsTheReceiptAndTheSharedSecretInApplesFieldNames() async throws {
        let transport = ScriptedTransport([Self.valid("Production")])
        let client = VerifyReceiptClient(configuration: .init(sharedSecret: "s3cret"), transport: transport)
        _ = await client.verify(receipt: "AAAA")
        let object = try JSONSerialization.jsonObject(with: try #require(transport.bodies.first)) as? [String: Any]
        #expect(object?["receipt-data"] as? String == "AAAA")
        #expect(object?["password"] as? String == "s3cret")
        #expect(transport.calls == ["buy.itunes.apple.com"])
    }
}
