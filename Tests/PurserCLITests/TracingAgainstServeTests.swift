import Foundation
import Purser
import PurserChaos
import PurserTesting
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Tracing as an operator sees it: one SDK purchase against a live `purser serve` exporting to an OTLP/HTTP receiver
/// decoded by `opentelemetry-proto` (scripts/otlp/receiver.py), which also plays the game's backend for webhooks.
@Suite struct TracingAgainstServeTests {
    let serve = ServeCommandTests()
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// One exported span, as the receiver writes it.
    struct Span: Decodable {
        var traceId: String
        var spanId: String
        var parentSpanId: String
        var name: String
        var kind: Int
        var attributes: [String: Attribute]
        var resource: [String: Attribute]

        enum CodingKeys: String, CodingKey {
            case traceId = "trace_id"
            case spanId = "span_id"
            case parentSpanId = "parent_span_id"
            case name, kind, attributes
            case resource
        }
    }

    /// A span attribute's value: text or a number.
    enum Attribute: Decodable, Equatable {
        case text(String)
        case number(Double)

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let text = try? container.decode(String.self) {
                self = .text(text)
            } else {
                self = .number((try? container.decode(Double.self)) ?? .nan)
            }
        }
    }

    /// One webhook post the game's backend received: its headers.
    struct Hook: Decodable {
        var path: String
        var headers: [String: String]
    }

    /// The project's venv (scripts/python-venv.sh, which installs opentelemetry-proto when missing) and the receiver
    /// started with it; its process and port.
    func startReceiver(spans: URL, hooks: URL) async throws -> (ChildProcess, Int) {
        let venv = try await ChildProcess.run(
            URL(fileURLWithPath: "/bin/bash"), [Self.repository.appendingPathComponent("scripts/python-venv.sh").path],
            environment: ProcessInfo.processInfo.environment)
        try #require(venv.status == 0, "python-venv.sh: \(venv.standardError)")
        let python =
            ProcessInfo.processInfo.environment["PURSER_VENV"].map { $0 + "/bin/python" }
            ?? Self.repository.appendingPathComponent(".venv/bin/python").path
        let receiver = try await ChildProcess.start(
            URL(fileURLWithPath: python),
            [
                Self.repository.appendingPathComponent("scripts/otlp/receiver.py").path, "--spans", spans.path,
                "--hooks", hooks.path,
            ], environment: ProcessInfo.processInfo.environment)
        for _ in 0..<300 {
            if let match = receiver.output.firstMatch(of: /listening (\d+)/), let port = Int(match.1) {
                return (receiver, port)
            }
            guard receiver.isRunning else { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        receiver.terminate()
        throw TracingTestError(description: "the OTLP receiver did not start: \(receiver.output)")
    }

    struct TracingTestError: Error, CustomStringConvertible {
        var description: String
    }

    func lines<Value: Decodable>(of file: URL, as type: Value.Type) throws -> [Value] {
        guard let text = try? String(contentsOf: file, encoding: .utf8) else { return [] }
        return try text.split(separator: "\n").map { try JSONDecoder().decode(Value.self, from: Data($0.utf8)) }
    }

    @Test func onePurchaseIsOneTraceFromTheAppToTheGamesBackend() async throws {
        let directory = try serve.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let spansFile = directory.appendingPathComponent("spans.jsonl")
        let hooksFile = directory.appendingPathComponent("hooks.jsonl")
        let (receiver, receiverPort) = try await startReceiver(spans: spansFile, hooks: hooksFile)
        defer { receiver.terminate() }
        let secret = "whsec_" + Data((0..<32).map { UInt8(($0 * 7 + 3) % 256) }).base64EncodedString()
        try #"{"products": {"gold60": {"type": "consumable", "grants": {"gold": 60}}}}"#
            .write(to: directory.appendingPathComponent("catalog.json"), atomically: true, encoding: .utf8)
        let config = directory.appendingPathComponent("purser.json")
        try """
        {"port": 0, "appStore": "simulator", "auth": {"mode": "development"}, "dataDirectory": "data",
         "catalogFile": "catalog.json", "bundleId": "com.example.game", "log": {"format": "json"},
         "tracing": {"otlp": {"endpoint": "http://127.0.0.1:\(receiverPort)"}, "environment": "test"},
         "webhooks": {"endpoints": [{"url": "http://127.0.0.1:\(receiverPort)/hook", "secret": "\(secret)"}]}}
        """.write(to: config, atomically: true, encoding: .utf8)
        let (server, port) = try await serve.launch(["serve", "--config", config.path], environment: [:])
        defer { server.terminate() }
        let base = URL(string: "http://127.0.0.1:\(port)")!
        // Apple's notification of the purchase would settle it in a trace of its own if it came first: held here.
        var pause = URLRequest(url: base.appendingPathComponent("simulator/v1/notifications/faults"))
        pause.httpMethod = "POST"
        pause.httpBody = Data(#"{"pause": true}"#.utf8)
        pause.setValue("application/json", forHTTPHeaderField: "Content-Type")
        let (_, paused) = try await URLSession.shared.data(for: pause)
        _ = try await URLSession.shared.data(from: base.appendingPathComponent("health"))  // a probe: not traced
        #expect((paused as? HTTPURLResponse)?.statusCode == 204)
        let app = try PurchaseCoordinator(
            server: base, store: SimulatorStoreAdapter(server: base), app: "com.example.game",
            directory: directory.appendingPathComponent("app"), configuration: .init(signals: .none))
        await app.start(session: PurserSession(userID: "ana", authorization: .development))
        let outcome = try await app.buy("gold60")
        guard case .delivered(let delivery) = outcome else {
            Issue.record("the purchase was not delivered: \(outcome)")
            return
        }
        await app.shutdown()

        // The webhook is delivered after the answer, and spans leave in batches: wait for the delivery's span.
        var spans: [Span] = []
        for _ in 0..<300 {
            spans = try lines(of: spansFile, as: Span.self)
            if spans.contains(where: { $0.name == "purser.webhook.attempt" }),
                try !lines(of: hooksFile, as: Hook.self).isEmpty
            {
                break
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        let ids = Set(spans.map(\.spanId))
        #expect(!spans.contains { $0.name == "/health" }, "a probe was traced")
        let submit = try #require(
            spans.first { $0.name == "/v1/transactions" && $0.kind == 2 }, "no server span of the submission")
        let trace = submit.traceId
        #expect(submit.resource["service.name"] == .text("purser"))
        #expect(submit.resource["deployment.environment.name"] == .text("test"))
        // The SDK's own span is the parent: sent in traceparent, not exported by the server.
        #expect(!submit.parentSpanId.isEmpty && !ids.contains(submit.parentSpanId), "the SDK's traceparent was lost")
        let order = try #require(spans.first { $0.name == "/v1/orders" && $0.kind == 2 }, "no span of the order")
        #expect(order.traceId == trace, "the order and the submission of one purchase are two traces")
        let verify = try #require(spans.first { $0.name == "purser.verify_signature" && $0.traceId == trace })
        #expect(verify.parentSpanId == submit.spanId)
        let settle = try #require(spans.first { $0.name == "purser.ledger.settle" && $0.traceId == trace })
        #expect(settle.parentSpanId == submit.spanId)
        #expect(settle.attributes["db.system.name"] == .text("sqlite"))
        #expect(settle.attributes["purser.decision"] == .text("delivered"))
        if case .number(let statements) = settle.attributes["purser.ledger.statements"] {
            #expect(statements >= 5, "a credit reads and writes more than \(statements) statements")
        } else {
            Issue.record("the settlement's span has no statement count: \(settle.attributes)")
        }
        let attempt = try #require(
            spans.first { $0.name == "purser.webhook.attempt" }, "no span of the webhook delivery")
        #expect(attempt.traceId == trace, "the webhook delivery is not in the purchase's trace")
        #expect(attempt.parentSpanId == settle.spanId, "the delivery's parent is not the settlement")
        #expect(attempt.attributes["purser.webhook.type"] == .text("transaction.credited"))
        // The game's backend got the delivery's traceparent: its own spans join the trace.
        // (AsyncHTTPClient adds a client span of its own under the attempt's, and sends that one.)
        let hook = try #require(try lines(of: hooksFile, as: Hook.self).first)
        let sent = try #require(hook.headers["traceparent"]?.split(separator: "-").map(String.init), "\(hook.headers)")
        #expect(sent.count == 4 && sent[1] == trace, "the game's backend got another trace: \(hook.headers)")
        let post = spans.first { sent.count == 4 && $0.spanId == sent[2] }
        #expect(
            post?.spanId == attempt.spanId || post?.parentSpanId == attempt.spanId,
            "the backend's parent span is not the delivery's: \(sent)")
        // The decision's log line names the trace and the span it was written in.
        let decided = server.output.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }.first { $0["message"] as? String == "transaction decided" }
        #expect(decided?["trace_id"] as? String == trace, "\(String(describing: decided))")
        #expect(decided?["span_id"] as? String == submit.spanId, "\(String(describing: decided))")
        // Support finds the trace by the purchase: `purser lookup` names it.
        let lookup = try await PurserProcess.run([
            "lookup", "--config", config.path, "--port", "\(port)", "--transaction-id", delivery.transactionID,
        ])
        #expect(lookup.status == 0, "\(lookup.stderr)")
        #expect(lookup.stdout.contains(#""traceId" : "\#(trace)""#), "\(lookup.stdout)")
    }
}
