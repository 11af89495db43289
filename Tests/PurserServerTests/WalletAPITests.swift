import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import PurserCore
import PurserServer
import PurserStorage
import Testing

/// `POST /admin/v1/wallets/{userId}/transactions`: the game's backend spends and deposits, once by its id, within
/// the balance; and support's goodwill credit from a user's page, which is such a deposit.
@Suite struct WalletAPITests {
    func send(_ client: some TestClientProtocol, _ user: String, _ body: String) async throws -> TestResponse {
        try await client.admin(.post, "/admin/v1/wallets/\(user)/transactions", body: body)
    }

    @Test func spendsAndDepositsApplyOnceWithinTheBalance() async throws {
        try await TestServer.run { server, client in
            let deposit =
                #"{"id": "quest-7", "amounts": {"gold": 100, "gems": 3}, "reason": "quest", "metadata": {"b": 1, "a": [true]}}"#
            let first = try await send(client, "zoe", deposit)
            #expect(first.status == .ok)
            let answer = try first.decode(WalletService.Answer.self)
            #expect(answer.balances == ["gold": 100, "gems": 3] && !answer.replayed)
            // The same request, its metadata's keys in another order: a replay.
            let same =
                #"{"id": "quest-7", "amounts": {"gems": 3, "gold": 100}, "reason": "quest", "metadata": {"a": [true], "b": 1}}"#
            let replay = try await send(client, "zoe", same).decode(WalletService.Answer.self)
            #expect(replay.replayed && replay.balances == answer.balances)
            let conflict = try await send(
                client, "zoe", #"{"id": "quest-7", "amounts": {"gold": 5}, "reason": "quest"}"#)
            #expect(conflict.status == .conflict)
            #expect(conflict.errorCode == "idempotency_conflict")
            #expect(String(buffer: conflict.body).contains("amounts, metadata"))

            let spend = try await send(client, "zoe", #"{"id": "shop-1", "amounts": {"gold": -40}, "reason": "sword"}"#)
            #expect(try spend.decode(WalletService.Answer.self).balances == ["gold": 60])
            let short = try await send(
                client, "zoe", #"{"id": "shop-2", "amounts": {"gold": -10, "gems": -4}, "reason": "axe"}"#)
            #expect(short.status == .unprocessableContent)
            #expect(short.errorCode == "insufficient_balance")
            #expect(try await client.wallet("zoe") == ["gold": 60, "gems": 3], "a refused spend takes nothing")
            #expect(try await server.store.auditTrail(of: "shop-1").first?.detail == "zoe gold-40: sword")

            for (body, code) in [
                (#"{"id": " ", "amounts": {"gold": 1}, "reason": "r"}"#, "invalid_idempotency_id"),
                (#"{"id": "x", "amounts": {}, "reason": "r"}"#, "invalid_amounts"),
                (#"{"id": "x", "amounts": {"gold": 0}, "reason": "r"}"#, "invalid_amounts"),
                (#"{"id": "x", "amounts": {"gold bars": 1}, "reason": "r"}"#, "invalid_amounts"),
                (#"{"id": "x", "amounts": {"gold": 1}, "reason": ""}"#, "reason_required"),
                (#"{"id": "x", "amounts": {"gold": 1}, "reason": "r", "metadata": [1]}"#, "invalid_metadata"),
                (#"{"id": "x", "amounts": {"gold": 1.5}, "reason": "r"}"#, "invalid_amounts"),
                (#"{"id": "x", "amounts": {"gold": 1}, "reason": "r""#, "malformed_json"),
            ] {
                let refused = try await send(client, "zoe", body)
                #expect(
                    refused.status == .badRequest && refused.errorCode == code, "\(body): \(refused.errorCode ?? "")")
            }
            #expect(try await client.wallet("zoe") == ["gold": 60, "gems": 3])
            // Lengths count code points, as openapi.yaml's maxLength does: 50 letters with 3 combining marks each are
            // 50 characters but 200 code points.
            let marked = String(repeating: "a\u{0301}\u{0302}\u{0303}", count: 50)
            #expect(marked.count == 50)
            let path = try #require(marked.addingPercentEncoding(withAllowedCharacters: .alphanumerics))
            let long = try await client.admin(.get, "/admin/v1/wallets/\(path)")
            #expect(long.status == .badRequest && long.errorCode == "invalid_user_id")
            let longID = try await send(
                client, "zoe", #"{"id": "\#(marked)\#(marked)", "amounts": {"gold": 1}, "reason": "r"}"#)
            #expect(longID.errorCode == "invalid_idempotency_id")

            let view = try await client.admin(.get, "/admin/v1/wallets/zoe").decode(WalletService.View.self)
            #expect(view.balances == ["gold": 60, "gems": 3] && view.available == view.balances && view.held.isEmpty)
            let newest = try await client.admin(.get, "/admin/v1/wallets/zoe/transactions?limit=1")
                .decode(WalletService.History.self)
            #expect(newest.entries.map(\.reference) == ["shop-1"] && newest.entries.first?.kind == "spend")
            let cursor = try #require(newest.next)
            let rest = try await client.admin(.get, "/admin/v1/wallets/zoe/transactions?cursor=\(cursor)")
                .decode(WalletService.History.self)
            #expect(rest.entries.map(\.reference) == ["quest-7"] && rest.next == nil)
            #expect(
                try await client.admin(.get, "/admin/v1/wallets/zoe/transactions?cursor=x").errorCode
                    == "invalid_cursor")
            #expect(
                try await client.admin(.get, "/admin/v1/wallets/zoe/transactions?limit=0").errorCode == "invalid_limit")
        }
    }

    @Test func aGoodwillCreditFromAUsersPageIsADepositOnceWithinTheLimit() async throws {
        try await TestServer.run(configure: ConsoleTests.configure) { server, client in
            let session = try await ConsoleTests.signIn(client)
            let page = try await ConsoleTests.get(client, "/console/users?id=ann", cookie: session)
            let html = String(buffer: page.body)
            let csrf = try ConsoleTests.csrf(in: page)
            let key = try #require(html.firstMatch(of: /name="key" value="([^"]+)"/)).1
            var form = [
                "csrf": csrf, "id": "ann", "key": String(key), "currency": "gold", "amount": "1001",
                "reason": "ticket 5: lost gold in a crash",
            ]
            let over = try await ConsoleTests.post(client, "/console/users/goodwill", form: form, cookie: session)
            #expect(over.status == .badRequest, "above console.goodwillLimit (1000)")
            form["amount"] = "250"
            for _ in 0..<2 {  // a second click replays the first credit
                let credited = try await ConsoleTests.post(
                    client, "/console/users/goodwill", form: form, cookie: session)
                #expect(credited.status == .seeOther)
                #expect(credited.headers[.location] == "/console/users?id=ann&credited=1")
            }
            #expect(try await client.wallet("ann") == ["gold": 250])
            let after = String(
                buffer: try await ConsoleTests.get(client, "/console/users?id=ann", cookie: session).body)
            #expect(
                after.contains("goodwill-\(key)") && after.contains("support by li: ticket 5"), "the history shows it")
            let audit = try await server.store.auditTrail(of: "goodwill-\(key)")
            #expect(audit.map(\.event) == ["deposited"] && audit.first?.cause == "support by li")
            var forged = form
            forged["csrf"] = "nope"
            forged["key"] = UUID().uuidString
            let refused = try await ConsoleTests.post(client, "/console/users/goodwill", form: forged, cookie: session)
            #expect(refused.status == .forbidden)
            #expect(try await client.wallet("ann") == ["gold": 250])
        }
    }
}
