import Foundation
import PurserCore
import Testing

/// The typed `Decision` a client reads back from the wire, and the wire format it must not change.
@Suite struct DecisionResponseTests {
    /// One of each case, with every reason the domain names.
    static let decisions: [Decision] = [
        .delivered, .alreadyDelivered, .deliveredToOtherAccount, .revoked,
        .pending(.notInReceipt), .pending(.noTransactionNamed), .pending(.unbound),
        .rejected(.unknownProduct("gold60")), .rejected(.wrongBundle("com.example.other")),
        .rejected(.wrongEnvironment("Sandbox")), .rejected(RejectionReason(code: "newer_code", message: "")),
    ]

    func roundTrip(_ response: DecisionResponse) throws -> DecisionResponse {
        try JSONDecoder().decode(DecisionResponse.self, from: JSONEncoder().encode(response))
    }

    func decode(_ json: String) throws -> DecisionResponse {
        try JSONDecoder().decode(DecisionResponse.self, from: Data(json.utf8))
    }

    @Test("the list above holds every decision the wire names")
    func listCoversEveryCase() throws {
        #expect(
            Set(Self.decisions.map(\.name)) == [
                "delivered", "alreadyDelivered", "deliveredToOtherAccount", "pending", "rejected", "revoked",
            ])
    }

    @Test("every decision comes back from JSON as itself", arguments: decisions)
    func roundTrips(_ decision: Decision) throws {
        let sent = DecisionResponse(
            transactionId: "2000000000000001", decision: decision,
            orderId: OrderID("0b9d2c9e-6f3c-4b8e-9f6a-2c1d3e4f5a6b"),
            grants: Grants(["gold": 60]))
        let received = try roundTrip(sent)
        #expect(received.outcome == decision)
        #expect(received.finish == decision.finish)
        #expect(received == sent)
    }

    @Test("a decision this build does not know decodes, has no outcome, and keeps its code")
    func unknownName() throws {
        let withReason = try decode(
            """
            {"transactionId": "1", "decision": "frozen", "finish": true,
             "reason": {"code": "under_review", "message": "held for review"}}
            """)
        #expect(withReason.outcome == nil)
        #expect(withReason.finish)
        #expect(withReason.code == "under_review")
        let bare = try decode(#"{"transactionId": "1", "decision": "frozen", "finish": false}"#)
        #expect(bare.outcome == nil)
        #expect(!bare.finish)
        #expect(bare.code == "frozen")
    }

    @Test("pending and rejected without a reason have no outcome; the others ignore a stray reason")
    func reasons() throws {
        #expect(try decode(#"{"decision": "pending", "finish": false}"#).outcome == nil)
        #expect(try decode(#"{"decision": "rejected", "finish": true}"#).outcome == nil)
        #expect(try decode(#"{"decision": "rejected", "finish": true}"#).code == "rejected")
        let stray = try decode(#"{"decision": "revoked", "finish": true, "reason": {"code": "x", "message": ""}}"#)
        #expect(stray.outcome == .revoked)
    }

    @Test("the wire format: only the stored fields, absent ones left out")
    func wireFormat() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let rejected = DecisionResponse(transactionId: "1", decision: .rejected(.wrongBundle("b")))
        #expect(
            String(decoding: try encoder.encode(rejected), as: UTF8.self) == """
                {"decision":"rejected","finish":true,"reason":{"code":"wrong_bundle",\
                "message":"the transaction belongs to bundle b, not this app"},"transactionId":"1"}
                """)
        let delivered = DecisionResponse(transactionId: nil, decision: .delivered, grants: Grants(["gold": 60]))
        #expect(
            String(decoding: try encoder.encode(delivered), as: UTF8.self) == """
                {"decision":"delivered","finish":true,"grants":{"gold":60}}
                """)
    }
}
