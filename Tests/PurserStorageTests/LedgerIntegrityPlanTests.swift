import Foundation
import Testing

@testable import PurserStorage

/// `purser ledger check` reads every row of a large ledger, so each of its queries must visit each row a bounded
/// number of times: SQLite's plan for it may scan a table once, and otherwise only search by key. A table scanned
/// inside another loop (a correlated subquery or a join's inner side without an index) makes the check quadratic:
/// `wallet_without_entries` once took 7.4 s for 17,024 wallet transactions and would have taken most of an hour
/// at a million purchases.
@Suite struct LedgerIntegrityPlanTests {
    /// One line of `EXPLAIN QUERY PLAN`: its id, its parent's id and what it does.
    struct Step {
        var id: Int
        var parent: Int
        var detail: String

        var isLoop: Bool { detail.hasPrefix("SCAN ") || detail.hasPrefix("SEARCH ") }
    }

    /// The scans that run inside another loop: a `SCAN` under a correlated subquery, or after another loop among
    /// its siblings (a nested loop of a join).
    static func nestedScans(in plan: [Step]) -> [String] {
        let byID = Dictionary(plan.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        func underCorrelated(_ step: Step) -> Bool {
            var parent = byID[step.parent]
            while let current = parent {
                if current.detail.hasPrefix("CORRELATED") { return true }
                parent = byID[current.parent]
            }
            return false
        }
        var nested: [String] = []
        for siblings in Dictionary(grouping: plan, by: \.parent).values {
            let loops = siblings.sorted { $0.id < $1.id }.filter(\.isLoop)
            for (index, step) in loops.enumerated() where step.detail.hasPrefix("SCAN ") {
                if index > 0 || underCorrelated(step) { nested.append(step.detail) }
            }
        }
        return nested.sorted()
    }

    static func plan(of query: String, on store: SQLiteLedgerStore) async throws -> [Step] {
        try await store.read("EXPLAIN QUERY PLAN " + query, []).map {
            Step(id: try $0.int("id"), parent: try $0.int("parent"), detail: try $0.text("detail"))
        }
    }

    @Test func everyQueryOfTheLedgerCheckScansEachTableOnceAtMost() async throws {
        try await SQLiteLedgerStoreTests.withStore { store, _ in
            let queries =
                LedgerIntegrity.checks.map { ($0.rule, $0.query) }
                + [("counts", LedgerIntegrity.countsQuery), ("balances", LedgerIntegrity.balancesQuery)]
            for (name, query) in queries {
                let plan = try await Self.plan(of: query, on: store)
                #expect(!plan.isEmpty, "\(name) has no plan")
                #expect(
                    Self.nestedScans(in: plan) == [],
                    "\(name) scans a table inside another loop: \(plan.map(\.detail).joined(separator: " | "))")
            }
        }
    }

    /// The rule above finds the shape that made the check quadratic: a correlated `NOT EXISTS` on a column without
    /// an index, and a join whose inner table has none.
    @Test func theRuleFindsAScanInsideAnotherLoop() async throws {
        try await SQLiteLedgerStoreTests.withStore { store, _ in
            let correlated = try await Self.plan(
                of: """
                    SELECT w.idempotency_id FROM wallet_transactions w
                    WHERE NOT EXISTS (SELECT 1 FROM wallet_entries e WHERE e.amount = w.id)
                    """, on: store)
            #expect(Self.nestedScans(in: correlated) == ["SCAN e"], "\(correlated.map(\.detail))")
            let joined = try await Self.plan(
                of: "SELECT 1 FROM grants g, wallet_entries e WHERE e.amount + 0 > g.amount", on: store)
            #expect(Self.nestedScans(in: joined).count == 1, "\(joined.map(\.detail))")
        }
    }
}
