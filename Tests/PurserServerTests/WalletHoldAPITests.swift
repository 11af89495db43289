import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import PurserCore
import PurserServer
import PurserStorage
import Testing

/// Holds over HTTP: reserved amounts no spend may take, captured in part or voided once, with the codes the issue
/// names.
@Suite struct WalletHoldAPITests {
    @Test func aHoldReservesAndResolvesOnce() async throws {
        try await TestServer.run(configure: ConsoleTests.configure) { server, client in
            #expect(
                try await client.admin(
                    .post, "/admin/v1/wallets/mia/transactions",
                    body: #"{"id": "w-1", "amounts": {"gold": 100}, "reason": "quest"}"#
                ).status == .ok)
            let hold = #"{"id": "auction-9", "amounts": {"gold": 60}, "expiresInSeconds": 600, "reason": "bid"}"#
            let placed = try await client.admin(.post, "/admin/v1/wallets/mia/holds", body: hold)
            #expect(placed.status == .ok)
            #expect(try placed.decode(WalletService.HoldAnswer.self).state == "open")
            #expect(
                try await client.admin(.post, "/admin/v1/wallets/mia/holds", body: hold).decode(
                    WalletService.HoldAnswer.self
                ).replayed)
            let view = try await client.admin(.get, "/admin/v1/wallets/mia").decode(WalletService.View.self)
            #expect(view.held == ["gold": 60] && view.available == ["gold": 40])
            let app = try await client.get("/v1/wallet", user: "mia").decode(WalletResponse.self)
            #expect(app.held == ["gold": 60] && app.available == ["gold": 40] && app.balances == ["gold": 100])
            let session = try await ConsoleTests.signIn(client)
            let page = String(buffer: try await ConsoleTests.get(client, "/console/users?id=mia", cookie: session).body)
            #expect(page.contains(#"<p id="held">Reserved by open holds (not spendable): gold 60</p>"#), "\(page)")
            let spend = try await client.admin(
                .post, "/admin/v1/wallets/mia/transactions",
                body: #"{"id": "w-2", "amounts": {"gold": -50}, "reason": "sword"}"#)
            #expect(spend.status == .unprocessableContent && spend.errorCode == "insufficient_balance")

            let over = try await client.admin(
                .post, "/admin/v1/holds/auction-9/capture", body: #"{"amounts": {"gold": 61}}"#)
            #expect(over.status == .unprocessableContent && over.errorCode == "capture_exceeds_hold")
            let captured = try await client.admin(
                .post, "/admin/v1/holds/auction-9/capture", body: #"{"amounts": {"gold": 45}}"#)
            let answer = try captured.decode(WalletService.HoldAnswer.self)
            #expect(answer.state == "captured" && answer.captured == ["gold": 45] && answer.balances == ["gold": 55])
            let again = try await client.admin(
                .post, "/admin/v1/holds/auction-9/capture", body: #"{"amounts": {"gold": 45}}"#)
            var replay = try again.decode(WalletService.HoldAnswer.self)
            #expect(replay.replayed)
            replay.replayed = false
            #expect(replay == answer, "a replayed capture answers exactly the first answer, balances included")
            let void = try await client.admin(.post, "/admin/v1/holds/auction-9/void")
            #expect(void.status == .conflict && void.errorCode == "hold_already_captured")
            #expect(try await client.wallet("mia") == ["gold": 55])

            _ = try await client.admin(
                .post, "/admin/v1/wallets/mia/holds",
                body: #"{"id": "auction-10", "amounts": {"gold": 5}, "expiresInSeconds": 600, "reason": "bid"}"#)
            #expect(try await client.admin(.post, "/admin/v1/holds/auction-10/void").status == .ok)
            let afterVoid = try await client.admin(.post, "/admin/v1/holds/auction-10/capture")
            #expect(afterVoid.status == .conflict && afterVoid.errorCode == "hold_already_voided")
            #expect(try await client.admin(.post, "/admin/v1/holds/nothing/void").status == .notFound)
            let expiry = try await client.admin(
                .post, "/admin/v1/wallets/mia/holds",
                body: #"{"id": "h-x", "amounts": {"gold": 5}, "expiresInSeconds": 0, "reason": "bid"}"#)
            #expect(expiry.status == .badRequest && expiry.errorCode == "invalid_expiry")
            let reserved = try await client.admin(
                .post, "/admin/v1/wallets/mia/transactions",
                body: #"{"id": "hold:auction-9", "amounts": {"gold": 1}, "reason": "x"}"#)
            #expect(reserved.errorCode == "invalid_idempotency_id", "a capture's id is Purser's")
            #expect(try await server.store.auditTrail(of: "auction-9").map(\.event) == ["held", "captured"])
        }
    }
}
