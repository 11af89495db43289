import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import PurserCore
import PurserServer
import PurserStorage
import Testing

/// The dashboard's pictures over live HTTP: server-rendered SVG of what the ledger holds (credits and revokes per
/// hour, the decisions, the sampled queues, the oldest unbound transaction against its threshold), in both languages,
/// under the console's unchanged Content-Security-Policy.
@Suite struct ConsoleDashboardTests {
    static func configure(_ configuration: inout ServerConfiguration) {
        ConsoleTests.configure(&configuration)
        configuration.console.sampleIntervalSeconds = 0.05
        configuration.console.unboundAlertSeconds = 0.5
    }

    @Test func drawsWhatTheLedgerHoldsAndTheQueuesAsSampled() async throws {
        try await TestServer.run(configure: Self.configure) { server, client in
            let ids = try await WebhookDeliveryTests.credit(["alice", "bob"], on: server, client: client)
            _ = try await server.store.revoke(
                transactionID: ids[1], revocationDate: Date(), cause: "refund", now: Date())
            let (unbound, jws) = try await server.pay("gold60", token: nil)
            _ = try await client.submit(jws, user: "carol")
            #expect(try await server.store.transaction(unbound)?.state == .unbound)
            // The sampler (a leased job every 50 ms here) records the unbound queue; then the gauge passes 0.5 s.
            try await WebhookDeliveryTests.eventually {
                try await server.store.timeline(since: Date().addingTimeInterval(-60)).samples.contains {
                    $0.unbound == 1
                }
            }
            try await Task.sleep(for: .milliseconds(600))

            let cookie = try await ConsoleTests.signIn(client)
            let page = try await ConsoleTests.get(client, "/console/dashboard", cookie: cookie)
            #expect(page.status == .ok)
            #expect(
                page.headers[HTTPField.Name("Content-Security-Policy")!]
                    == "default-src 'self'; script-src 'none'; frame-ancestors 'none'; form-action 'self'")
            let html = String(buffer: page.body)
            #expect(!html.contains("<script") && !html.contains(" style="), "nothing the policy would block")
            let hourly = try Self.svg("chart-hourly", in: html)
            #expect(hourly.contains("<desc id=\"chart-hourly-desc\">2 credits, 1 revokes</desc>"), "\(hourly)")
            let decisions = try Self.svg("chart-decisions", in: html)
            for shown in ["credited: 2", "revoked: 1", "recorded unbound: 1"] {
                #expect(decisions.contains("<title>\(shown)</title>"), "\(shown) in \(decisions)")
            }
            let queues = try Self.svg("chart-queues", in: html)
            #expect(queues.contains("<polyline") && queues.contains(" 1 Unbound</title>"), "\(queues)")
            let gauge = try Self.svg("chart-unbound-age", in: html)
            #expect(gauge.contains("fill=\"#ff3b30\""), "past the threshold: red. \(gauge)")

            let chinese = String(
                buffer: try await ConsoleTests.get(client, "/console/dashboard", cookie: cookie, language: "zh-Hans")
                    .body)
            #expect(chinese.contains("每小时发放与撤回") && chinese.contains("<title>已发放: 2</title>"))
        }
    }

    @Test func showsAnEmptyLedgerWithoutInventingAnything() async throws {
        try await TestServer.run(configure: ConsoleTests.configure) { _, client in
            let cookie = try await ConsoleTests.signIn(client)
            let html = String(buffer: try await ConsoleTests.get(client, "/console/dashboard", cookie: cookie).body)
            #expect(
                try Self.svg("chart-hourly", in: html).contains("<desc id=\"chart-hourly-desc\">0 credits, 0 revokes"))
            #expect(
                !(try Self.svg("chart-hourly", in: html)).contains("</rect>"),
                "no bar (a titled rect) without a credit or revoke")
            #expect(try Self.svg("chart-unbound-age", in: html).contains("No unbound transaction."))
            #expect(!(try Self.svg("chart-unbound-age", in: html)).contains("#ff3b30"))
        }
    }

    /// The gauge's default threshold is the one the shipped alert fires at, so the picture and the page agree.
    @Test func drawsTheUnboundGaugeAgainstTheShippedAlertsThreshold() throws {
        let rules = try String(
            contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
                "../../examples/prometheus-alerts.yml"), encoding: .utf8)
        let match = try #require(rules.firstMatch(of: /purser_transactions_unbound_oldest_age_seconds\) > (\d+)/))
        #expect(Double(match.1) == ServerConfiguration.Console().unboundAlertSeconds)
    }

    /// The `<svg id="…">…</svg>` element of the page.
    static func svg(_ id: String, in html: String) throws -> String {
        let start = try #require(html.range(of: "<svg id=\"\(id)\""), "no \(id) on the page")
        let end = try #require(html.range(of: "</svg>", range: start.upperBound..<html.endIndex))
        return String(html[start.lowerBound..<end.upperBound])
    }
}
