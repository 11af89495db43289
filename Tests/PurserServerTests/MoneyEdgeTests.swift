import AppStoreSimulator
import AppStoreVerification
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import PurserCore
import PurserServer
import Testing

@testable import PurserStorage

/// One request can no longer stop every game: amounts at the edges of `Int64` (and beyond it, in valid JSON) are
/// refused with a code that names the field, arithmetic that would overflow is 422 `amount_out_of_range` with
/// nothing written, and the server answers `/health` after each. Before money was a type, `-9223372036854775808`
/// in a spend trapped the process (`abs`), and a grant times a signed quantity trapped it in `Grants.times`.
@Suite struct MoneyEdgeTests {
    static let minimum = "-9223372036854775808"

    func post(_ client: some TestClientProtocol, _ uri: String, admin: Bool, _ body: String) async throws
        -> TestResponse
    {
        admin
            ? try await client.admin(.post, uri, body: body)
            : try await client.post(uri, user: "amy", body: ByteBuffer(string: body))
    }

    @Test func amountsAtAndBeyondInt64sEdgesAreRefusedNamingTheField() async throws {
        try await TestServer.run(configure: WalletSpendAPITests.clientSpendOn) { _, client in
            let cases: [(uri: String, admin: Bool, amount: String, code: String)] = [
                ("/v1/wallet/spend", false, Self.minimum, "invalid_amounts"),
                ("/admin/v1/wallets/amy/transactions", true, Self.minimum, "invalid_amounts"),
                ("/admin/v1/wallets/amy/transactions", true, "9223372036854775807", "invalid_amounts"),
                ("/admin/v1/wallets/amy/transactions", true, "9223372036854775808", "invalid_amounts"),
                ("/admin/v1/wallets/amy/transactions", true, "-1.5", "invalid_amounts"),
                ("/admin/v1/wallets/amy/transactions", true, "null", "invalid_amounts"),
                ("/admin/v1/wallets/amy/transactions", true, "1e308", "invalid_amounts"),
                ("/admin/v1/wallets/amy/holds", true, Self.minimum, "invalid_amounts"),
                ("/admin/v1/wallets/amy/holds", true, "9223372036854775807", "invalid_amounts"),
            ]
            for (index, item) in cases.enumerated() {
                let extra = item.uri.hasSuffix("holds") ? #", "expiresInSeconds": 60"# : ""
                let body = #"{"id": "edge-\#(index)", "amounts": {"gold": \#(item.amount)}, "reason": "edge"\#(extra)}"#
                let response = try await post(client, item.uri, admin: item.admin, body)
                #expect(
                    response.status == .badRequest && response.errorCode == item.code,
                    "\(item) \(response.errorCode ?? "")")
                #expect(try await client.get("/health", user: nil).status == .ok, "\(item)")
            }
            let named = try await post(
                client, "/admin/v1/wallets/amy/transactions", admin: true,
                #"{"id": "edge-x", "amounts": {"gold": 9223372036854775808}, "reason": "edge"}"#)
            let message = try named.decode(APIErrorResponse.self).error.message
            #expect(message.contains("amounts.gold"), "\(message)")
            #expect(!message.contains("not valid JSON"), "it is valid JSON: \(message)")
            let broken = try await post(client, "/admin/v1/wallets/amy/transactions", admin: true, #"{"id": "#)
            #expect(broken.errorCode == "malformed_json")
            #expect(try await client.wallet("amy") == [:], "nothing was written")
        }
    }

    /// A deposit that would take a balance past the wallet's range is 422 `amount_out_of_range` and writes nothing;
    /// a balance beyond `Int64` (written before amounts were checked) reads as that error, not as a 500.
    @Test func aBalanceBeyondTheWalletsRangeIsRefusedAndAnOverflowingOneIsReported() async throws {
        try await TestServer.run { server, client in
            /// Gold `user` holds outside Purser's checked writes: a grant row against their credited purchase.
            func legacy(_ user: String, _ amounts: [Int64]) async throws {
                let order = try await server.order("gold60", for: user, client: client)
                let (id, jws) = try await server.pay("gold60", token: order.appAccountToken)
                #expect(try await client.submit(jws, user: user).status == .ok)
                try await server.store.write { database in
                    for amount in amounts {
                        _ = try database.query(
                            """
                            INSERT INTO grants (transaction_id, user_id, currency, amount, kind, created_at)
                            VALUES (?, ?, 'gold', ?, 'debit', 0)
                            """, [.text(id), .text(user), .integer(Int(amount))])
                    }
                }
            }
            try await legacy("bo", [Amounts.walletLimit - 60])
            let deposit = try await client.admin(
                .post, "/admin/v1/wallets/bo/transactions",
                body: #"{"id": "one-more", "amounts": {"gold": 1}, "reason": "gift"}"#)
            #expect(deposit.status == .unprocessableContent && deposit.errorCode == "amount_out_of_range")
            #expect(try await client.wallet("bo") == ["gold": Amounts.walletLimit], "nothing was written")

            try await legacy("cy", [.max, .max])
            let wallet = try await client.get("/v1/wallet", user: "cy")
            #expect(wallet.status == .unprocessableContent && wallet.errorCode == "amount_out_of_range")
            let integrity = try await server.store.integrity()
            #expect(
                integrity.findings.contains { $0.rule == "balance_out_of_range" && $0.subject.hasPrefix("cy gold") })
            #expect(
                integrity.findings.contains { $0.rule == "balance_out_of_range" && $0.subject.hasPrefix("bo gold") }
                    == false)
            #expect(try await client.get("/health", user: nil).status == .ok)
        }
    }

    /// A grant times the quantity Apple signed that leaves `Int64` is 422 `amount_out_of_range`: nothing is recorded,
    /// the transaction stays unfinished on the device, and the server serves on.
    @Test func aGrantTimesASignedQuantityThatOverflowsIsRefusedNotATrap() async throws {
        let huge = ProductCatalog([
            ProductDefinition(id: "gold60", type: .consumable, grants: Grants(["gold": Int64.max / 2 + 1]))
        ])
        try await TestServer.run(catalog: huge) { server, client in
            let order = try await server.order("gold60", for: "dee", client: client)
            let (transaction, jws) = try await server.appStore.purchase(
                .init(productId: "gold60", quantity: 2, appAccountToken: order.appAccountToken))
            let answer = try await client.submit(jws, user: "dee")
            #expect(answer.status == .unprocessableContent && answer.errorCode == "amount_out_of_range")
            #expect(try await server.store.transaction(transaction.transactionId) == nil, "nothing was recorded")
            #expect(try await client.get("/health", user: nil).status == .ok)
        }
    }
}
