import Foundation
import PurserCore
import Testing

/// Which token a plan owes Apple's record (Set App Account Token) after it binds a transaction.
@Suite struct AppAccountTokenRuleTests {
    let now = Date(timeIntervalSince1970: 1_704_067_200)
    let gold = ProductDefinition(id: "gold60", type: .consumable, grants: Grants(["gold": 60]))

    func transaction(token: OrderID?, environment: AppStoreEnvironment = .sandbox) -> AppleTransaction {
        AppleTransaction(
            transactionID: "1000", originalTransactionID: "1000", bundleID: "b", productID: "gold60",
            type: "Consumable", quantity: 1, purchaseDate: now, appAccountToken: token, environment: environment)
    }

    func order(_ user: UserID) -> Order {
        Order(id: .random(), userID: user, productID: "gold60", quantity: 1, createdAt: now.addingTimeInterval(-5))
    }

    @Test func aTokenBoundCreditOwesNothing() throws {
        let order = order("alice")
        let plan = try SubmissionRules.plan(
            Submission(
                transaction: transaction(token: order.id), assessment: .creditable(gold), source: .client("alice")),
            existing: nil, order: order, now: now)
        #expect(plan.written?.state == .credited)
        #expect(plan.appAccountTokenForApple == nil)
        #expect(plan.creditedBy == "client")
    }

    @Test func anOrderHintBindOwesTheOrdersID() throws {
        let order = order("alice")
        let plan = try SubmissionRules.plan(
            Submission(
                transaction: transaction(token: nil), assessment: .creditable(gold), source: .client("alice"),
                orderHint: order.id),
            existing: nil, order: order, now: now)
        #expect(plan.written?.ownerID == "alice")
        #expect(plan.appAccountTokenForApple == order.id)
    }

    /// Xcode and local testing sign on the developer's Mac: Apple never saw the purchase, so nothing is owed to it.
    @Test(arguments: [AppStoreEnvironment.xcode, .localTesting])
    func aTransactionAppleNeverSawOwesAppleNothing(_ environment: AppStoreEnvironment) throws {
        let order = order("alice")
        let plan = try SubmissionRules.plan(
            Submission(
                transaction: transaction(token: nil, environment: environment), assessment: .creditable(gold),
                source: .client("alice"), orderHint: order.id),
            existing: nil, order: order, now: now)
        #expect(plan.written?.ownerID == "alice")
        #expect(plan.appAccountTokenForApple == nil && plan.creditedBy == nil)
    }

    @Test func aSupportBindOfAnUnboundTransactionOwesTheAccountsToken() throws {
        let unbound = LedgerTransaction(
            transaction: transaction(token: nil), state: .unbound, ownerID: nil, orderID: nil, rejection: nil,
            grants: .none, recordedAt: now)
        let plan = try SubmissionRules.plan(
            Submission(
                transaction: transaction(token: nil), assessment: .creditable(gold),
                source: .support(operator: "sam", user: "bob", reason: "ticket")),
            existing: unbound, order: nil, now: now)
        #expect(plan.written?.state == .credited)
        #expect(plan.appAccountTokenForApple == OrderID.accountToken(for: "bob"))
        #expect(plan.creditedBy == "support")
        // Nothing is owed when the ledger holds nothing new: a repeat of the credited transaction.
        let repeated = try SubmissionRules.plan(
            Submission(
                transaction: transaction(token: nil), assessment: .creditable(gold),
                source: .support(operator: "sam", user: "bob", reason: "ticket")),
            existing: plan.written, order: nil, now: now)
        #expect(repeated.appAccountTokenForApple == nil && repeated.creditedBy == nil)
    }

    @Test func anAccountsTokenIsStableDistinctAndNeverAnOrdersID() throws {
        let bob = OrderID.accountToken(for: "bob")
        #expect(bob == OrderID.accountToken(for: "bob"))
        #expect(bob != OrderID.accountToken(for: "bob2"))
        #expect(bob != OrderID.accountToken(for: "Bob"))
        // Version 8 (RFC 9562), RFC 4122 variant; orders' ids are random version 4 UUIDs.
        let text = bob.description
        #expect(Array(text)[14] == "8")
        #expect("89ab".contains(Array(text)[19]))
        #expect(Array(OrderID.random().description)[14] == "4")
    }
}
