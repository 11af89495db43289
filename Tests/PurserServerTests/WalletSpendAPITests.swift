import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import PurserCore
import PurserServer
import PurserStorage
import Testing

/// `POST /v1/wallet/spend`: a game with no backend spends from its own user's wallet, only when `wallet.clientSpend`
/// is on, only spends, and under the admin API's rules (once by id, within the available balance).
@Suite struct WalletSpendAPITests {
    func spend(_ client: some TestClientProtocol, as user: String, _ body: String) async throws -> TestResponse {
        try await client.post("/v1/wallet/spend", user: user, body: ByteBuffer(string: body))
    }

    func deposit(_ client: some TestClientProtocol, _ user: String, gold: Int) async throws {
        let answer = try await client.admin(
            .post, "/admin/v1/wallets/\(user)/transactions",
            body: #"{"id": "start-\#(user)", "amounts": {"gold": \#(gold)}, "reason": "starting gold"}"#)
        #expect(answer.status == .ok)
    }

    static func clientSpendOn(_ configuration: inout ServerConfiguration) { configuration.wallet.clientSpend = true }

    @Test func isRefusedWhileClientSpendIsOff() async throws {
        try await TestServer.run { _, client in
            try await deposit(client, "amy", gold: 100)
            for body in [#"{"id": "s-1", "amounts": {"gold": -30}, "reason": "sword"}"#, "{not json"] {
                let refused = try await spend(client, as: "amy", body)
                #expect(refused.status == .forbidden && refused.errorCode == "client_spend_disabled", "\(body)")
            }
            #expect(try await client.wallet("amy") == ["gold": 100])
        }
    }

    @Test func spendsOnceFromTheCallersOwnWalletWhenOn() async throws {
        try await TestServer.run(configure: Self.clientSpendOn) { server, client in
            try await deposit(client, "amy", gold: 100)
            let body = #"{"id": "s-1", "amounts": {"gold": -30}, "reason": "sword"}"#
            let first = try await spend(client, as: "amy", body)
            #expect(first.status == .ok)
            let answer = try first.decode(WalletService.Answer.self)
            #expect(answer.userId == "amy" && answer.balances == ["gold": 70] && !answer.replayed)
            let again = try await spend(client, as: "amy", body).decode(WalletService.Answer.self)
            #expect(again.replayed && again.balances == ["gold": 70], "a resend after a lost answer replays")
            #expect(try await client.wallet("amy") == ["gold": 70])

            // Another account sending amy's id spends nothing of amy's: the id is hers, with her user.
            let stranger = try await spend(client, as: "bob", body)
            #expect(stranger.status == .conflict && stranger.errorCode == "idempotency_conflict")
            let conflict = try await spend(
                client, as: "amy", #"{"id": "s-1", "amounts": {"gold": -31}, "reason": "sword"}"#)
            #expect(conflict.status == .conflict && conflict.errorCode == "idempotency_conflict")

            let mint = try await spend(
                client, as: "amy", #"{"id": "s-2", "amounts": {"gold": -1, "gems": 5}, "reason": "cheat"}"#)
            #expect(mint.status == .badRequest && mint.errorCode == "invalid_amounts", "the app cannot deposit")
            let short = try await spend(client, as: "amy", #"{"id": "s-3", "amounts": {"gold": -71}, "reason": "x"}"#)
            #expect(short.status == .unprocessableContent && short.errorCode == "insufficient_balance")
            #expect(try await client.wallet("amy") == ["gold": 70])
            #expect(try await client.wallet("bob").isEmpty)

            #expect(try await server.store.auditTrail(of: "s-1").first?.cause == "app")
            let history = try await client.admin(.get, "/admin/v1/wallets/amy/transactions")
                .decode(WalletService.History.self)
            let newest = try #require(history.entries.first)
            #expect(newest.kind == "spend" && newest.reference == "s-1" && newest.cause == "app")
        }
    }
}
