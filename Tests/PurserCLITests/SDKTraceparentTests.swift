import Foundation
import Purser
import PurserChaos
import PurserTesting
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The SDK's W3C `traceparent` against a live `purser serve`: one purchase is one trace across its order, its
/// submissions, their retries and a relaunch, each request a span of its own, and serve takes every request. The
/// SDK's requests are read at its transport seam (`PurserHTTPTransport`), around the real `URLSessionTransport`.
@Suite struct SDKTraceparentTests {
    let serve = ServeCommandTests()
    let ana = PurserSession(userID: "ana", authorization: .development)

    /// The SDK's transport, recording each request's `traceparent` and serve's status; it can fail submissions
    /// the way a network does.
    actor Recorder: PurserHTTPTransport {
        /// How the next submissions fail.
        enum Failure {
            /// The request never reaches serve.
            case unsent
            /// Serve takes the request; its answer is lost on the way back.
            case answerLost
        }

        /// One request: where it went, its `traceparent`, and serve's status (nil when it never reached serve).
        struct Sent: Sendable {
            var path: String
            var traceparent: String?
            var status: Int?
        }

        private let transport = URLSessionTransport(timeout: 15)
        private(set) var sent: [Sent] = []
        private var failures: [Failure] = []

        /// The next submissions fail so, in order.
        func failSubmissions(_ failures: [Failure]) { self.failures = failures }

        func send(_ request: URLRequest) async throws -> (body: Data, status: Int) {
            let path = request.url?.path ?? ""
            let traceparent = request.value(forHTTPHeaderField: "traceparent")
            let failure = path == "/v1/transactions" && !failures.isEmpty ? failures.removeFirst() : nil
            if failure == .unsent {
                sent.append(Sent(path: path, traceparent: traceparent, status: nil))
                throw URLError(.notConnectedToInternet)
            }
            let answer = try await transport.send(request)
            sent.append(Sent(path: path, traceparent: traceparent, status: answer.status))
            if failure == .answerLost { throw URLError(.networkConnectionLost) }
            return answer
        }
    }

    /// A coordinator on the journal in `directory`, paying through `store`, its requests through `recorder`.
    func coordinator(_ base: URL, _ store: SimulatorStoreAdapter, _ recorder: Recorder, in directory: URL)
        throws -> PurchaseCoordinator
    {
        PurchaseCoordinator(
            api: PurserAPIClient(baseURL: base, app: "com.example.game", transport: recorder),
            journal: try PurchaseJournal(
                store: FileJournalStore(url: directory.appendingPathComponent("journal.json"))),
            store: store,
            configuration: .init(retry: RetryPolicy(maxAttempts: 2, baseDelay: .milliseconds(10)), signals: .none))
    }

    @Test func aPurchaseIsOneTraceAcrossRetriesAndARelaunchAndServeCreditsIt() async throws {
        let directory = try serve.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (server, base) = try await SimulatorStoreAdapterTests().startServe(in: directory)
        defer { server.terminate() }
        let store = SimulatorStoreAdapter(server: base)
        let recorder = Recorder()

        // Both submissions of the first run are lost on the way: the purchase waits for the server.
        await recorder.failSubmissions([.unsent, .unsent])
        let app = try coordinator(base, store, recorder, in: directory)
        await app.start(session: ana)
        guard case .pending(let pending) = try await app.buy("gold60"), pending.reason == .serverUnreachable else {
            Issue.record("the purchase did not wait for the server")
            return
        }
        await app.shutdown()

        // The app is launched again with StoreKit still holding the transaction: serve takes the first submission
        // but its answer is lost, and the retry gets the decision.
        await recorder.failSubmissions([.answerLost])
        let relaunched = try coordinator(base, store, recorder, in: directory)
        await relaunched.start(session: ana)
        let purchase = await recorder.sent
        #expect(
            purchase.map(\.path) == [
                "/v1/orders", "/v1/transactions", "/v1/transactions", "/v1/transactions", "/v1/transactions",
            ], "\(purchase)")
        let traces = purchase.compactMap { $0.traceparent.flatMap(TraceContext.init(traceparent:)) }
        #expect(traces.count == purchase.count, "a request without a valid traceparent: \(purchase)")
        #expect(Set(traces.map(\.traceID)).count == 1, "the purchase is more than one trace: \(traces)")
        #expect(Set(traces.map(\.spanID)).count == purchase.count, "two requests shared a span: \(traces)")
        let answered = purchase.compactMap(\.status)
        #expect(answered == [201, 200, 200], "serve refused a request: \(purchase)")

        // Credited once, and the wallet read is a trace of its own.
        #expect(try await relaunched.wallet().balances["gold"] == 60)
        let read = await recorder.sent.last
        #expect(read?.path == "/v1/wallet" && read?.status == 200)
        let readTrace = read?.traceparent.flatMap(TraceContext.init(traceparent:))
        #expect(readTrace != nil && readTrace?.traceID != traces.first?.traceID)
        #expect(await store.unfinishedTransactions().isEmpty)
        await relaunched.shutdown()
    }
}
