import Foundation
import PurserCore
import PurserStorage

/// Reads a ledger that today's store has just upgraded from fixtures (`LedgerFixture`) through the store's public reads
/// only, and reports every way it differs from what the fixtures expect. Beside each `-- expect` line it checks that
/// the ledger check finds nothing, that the balances' totals are the sum of every expected balance (so each user's
/// balance must be declared), that each such user's wallet history adds up to the balance, and that every outbox
/// event can be listed and, once fanned out, decodes as a webhook body. Then today's store writes over the old rows
/// (`writesAfterTheUpgrade`), which must apply and leave the ledger check holding.
///
/// Expectations: `balance USER CURRENCY AMOUNT`; `state TX STATE`; `revoked TX MILLIUNITS`; `audit SUBJECT EVENT…`
/// (the subject's whole trail, in order); `order ID STATE`; `unbound TX…` (in the unbound queue); `purchases USER TX…`
/// (exactly); `history USER KIND:REF…` (the whole wallet history, oldest first); `notification UUID` (processed);
/// `unprocessed UUID`; `cursor NAME VALUE`; `lease NAME EXPIRES_MS` (held until then); `apptx ID TX…`;
/// `followup TX finish` or `followup TX token ORDER`; `owned USER PRODUCT…`; `held USER NOW_MS CUR=AMOUNT,…`;
/// `hold ID STATE`; `delivery WEBHOOK_ID ENDPOINT STATUS`; `event WEBHOOK_ID TYPE USER SEQUENCE CUR=AMOUNT,… [CAUSE]`
/// (its body, read from a claim once the upgraded ledger fans it out or its delivery falls due); `key NAME
/// active|revoked SCOPE,… APP,…|all` (also found by its secret's hash); `operator NAME APP=ROLE,… GENERATION
/// enabled|disabled [PER_GRANT/PER_DAY]`; `failures KEY SINCE_MS COUNT` (failed sign-ins); `grant ID STATE` (a pending
/// one among its app's waiting grants); `given APP OPERATOR CURRENCY SINCE_MS TOTAL` (what they gave alone).
public struct LedgerUpgradeCheck: Sendable {
    public let store: any LedgerStore
    public let fixtures: [LedgerFixture]
    /// Outbox rows in the ledger (counted by the backend's test): each must show up as a webhook event.
    public let outboxRows: Int
    /// When the reads happen: after every fixture's rows.
    let now = Date(timeIntervalSince1970: 1_795_700_000)
    /// The endpoint the check fans the events out to: one no release had, so every event not yet fanned out gets it.
    static let endpoint = "https://upgrade-check.example/hook"

    public init(store: any LedgerStore, fixtures: [LedgerFixture], outboxRows: Int) {
        self.store = store
        self.fixtures = fixtures
        self.outboxRows = outboxRows
    }

    var expectations: [LedgerFixture.Expectation] { fixtures.flatMap(\.expectations) }

    /// Every difference found, empty when the upgraded ledger reads as expected.
    public func run() async throws -> [String] {
        var problems: [String] = []
        problems += try await integrityAndBalances()
        for expectation in expectations {
            do {
                if let problem = try await check(expectation) { problems.append("\(expectation): \(problem)") }
            } catch {
                problems.append("\(expectation): \(String(reflecting: error))")
            }
        }
        problems += try await webhookEvents()
        problems += try await leases()
        problems += try await writesAfterTheUpgrade()
        return problems
    }

    /// The ledger check, the totals and each declared user's balances and history.
    func integrityAndBalances() async throws -> [String] {
        var problems: [String] = []
        let report = try await store.integrity()
        problems += report.findings.map { "ledger check: \($0)" }
        var declared: [String: [String: Int64]] = [:]
        for expectation in expectations where expectation.kind == "balance" {
            let arguments = expectation.arguments
            guard arguments.count == 3, let amount = Int64(arguments[2]) else {
                problems.append("\(expectation): cannot read")
                continue
            }
            declared[arguments[0], default: [:]][arguments[1]] = amount
        }
        for (user, balances) in declared.sorted(by: { $0.key < $1.key }) {
            let read = try await store.balances(of: UserID(user)).filter { $0.value != 0 }
            let expected = balances.filter { $0.value != 0 }
            if read != expected { problems.append("balances of \(user): \(read), expected \(expected)") }
            var summed: [String: Int64] = [:]
            for entry in try await store.walletHistory(of: UserID(user)) {
                for (currency, amount) in entry.amounts { summed[currency, default: 0] += amount }
            }
            if summed.filter({ $0.value != 0 }) != expected {
                problems.append("wallet history of \(user) adds up to \(summed), expected \(expected)")
            }
        }
        let readTotals = report.totals.filter { $0.value != 0 }
        let totals = LedgerFixture.totals(fixtures)
        if readTotals != totals {
            problems.append("balances' totals \(readTotals), expected \(totals) (every user's balance declared)")
        }
        return problems
    }

    /// One expectation about a transaction, order, user or wallet; `nil` when it holds.
    func check(_ expectation: LedgerFixture.Expectation) async throws -> String? {
        let a = expectation.arguments
        switch (expectation.kind, a.count) {
        case ("balance", _), ("delivery", _), ("event", _), ("lease", _):
            return nil  // checked with the totals, the webhook events and the leases
        case ("state", 2):
            let state = try await store.transaction(a[0])?.state.rawValue
            return state == a[1] ? nil : "is \(state ?? "missing")"
        case ("revoked", 2):
            let share = try await store.transaction(a[0])?.transaction.revocationPercentage
            return share == Int(a[1]) ? nil : "revoked share \(share.map(String.init) ?? "none")"
        case ("audit", 2...):
            let events = try await store.auditTrail(of: a[0]).map(\.event)
            return events == Array(a.dropFirst()) ? nil : "trail \(events)"
        case ("order", 2):
            guard let id = OrderID(a[0]) else { return "not an order id" }
            let state = try await store.order(id)?.state.rawValue
            return state == a[1] ? nil : "is \(state ?? "missing")"
        case ("unbound", 1...):
            let queue = Set(try await store.unboundTransactionIDs(limit: 1_000))
            let missing = a.filter { !queue.contains($0) }
            return missing.isEmpty ? nil : "not in the unbound queue: \(missing)"
        case ("purchases", 2...):
            let ids = Set(try await store.purchases(of: UserID(a[0]), limit: 1_000).transactionIDs)
            return ids == Set(a.dropFirst()) ? nil : "purchases \(ids.sorted())"
        case ("history", 2...):
            let entries = try await store.walletHistory(of: UserID(a[0])).map { "\($0.kind):\($0.reference)" }
            return entries == Array(a.dropFirst()) ? nil : "history \(entries)"
        case ("notification", 1), ("unprocessed", 1):
            let processed = try await store.processedNotifications(among: [a[0]]).contains(a[0])
            return processed == (expectation.kind == "notification") ? nil : "processed: \(processed)"
        case ("cursor", 2):
            let value = try await store.cursor(a[0])
            return value == a[1] ? nil : "cursor \(value ?? "missing")"
        default:
            return try await checkLater(expectation)
        }
    }

    /// The expectations of later schema versions: Apple follow-ups, entitlements, holds, trace links, then keys and the
    /// console's.
    private func checkLater(_ expectation: LedgerFixture.Expectation) async throws -> String? {
        let a = expectation.arguments
        switch (expectation.kind, a.count) {
        case ("apptx", 2...):
            let ids = try await store.transactions(appTransactionID: a[0]).map(\.transaction.transactionID)
            return Set(ids) == Set(a.dropFirst()) ? nil : "transactions \(ids)"
        case ("followup", 2...):
            let due = try await store.appleFollowUps(clientCreditedBefore: now, limit: 1_000)
            guard let followUp = due.first(where: { $0.transactionID == a[0] }) else { return "not due" }
            if a[1] == "finish" { return followUp.finish ? nil : "no finish due" }
            return followUp.appAccountToken?.description == a.last ? nil : "token \(String(describing: followUp))"
        case ("owned", 2...):
            let owned = try await store.ownedProductIDs(of: UserID(a[0]))
            return owned == Set(a.dropFirst()) ? nil : "owns \(owned.sorted())"
        case ("held", 3):
            guard let millis = Double(a[1]) else { return "cannot read" }
            let held = try await store.heldAmounts(of: UserID(a[0]), now: Date(timeIntervalSince1970: millis / 1000))
            return held == Self.amounts(a[2]) ? nil : "held \(held)"
        case ("hold", 2):
            let state = try await store.hold(a[0])?.state.rawValue
            return state == a[1] ? nil : "is \(state ?? "missing")"
        case ("trace", 2):
            let link = try await store.trace(ofTransaction: a[0])
            return link == a[1] ? nil : "trace \(link ?? "none")"
        default:
            return try await checkAccess(expectation)
        }
    }

    /// `gold=60,gems=5` as amounts.
    static func amounts(_ text: String) -> [String: Int64] {
        var amounts: [String: Int64] = [:]
        for pair in text.split(separator: ",") {
            let parts = pair.split(separator: "=")
            if parts.count == 2, let amount = Int64(parts[1]) { amounts[String(parts[0])] = amount }
        }
        return amounts
    }

    /// Each `lease NAME EXPIRES_MS`: another holder cannot take it before it expires, and can afterwards.
    func leases() async throws -> [String] {
        var problems: [String] = []
        for expectation in expectations where expectation.kind == "lease" {
            guard expectation.arguments.count == 2, let millis = Double(expectation.arguments[1]) else {
                problems.append("\(expectation): cannot read")
                continue
            }
            let name = expectation.arguments[0]
            let expires = Date(timeIntervalSince1970: millis / 1000)
            let before = try await store.acquireLease(
                name, holder: "upgrade-check", until: expires.addingTimeInterval(60),
                now: expires.addingTimeInterval(-1))
            let after = try await store.acquireLease(
                name, holder: "upgrade-check", until: expires.addingTimeInterval(60), now: expires.addingTimeInterval(1)
            )
            if before || !after { problems.append("\(expectation): taken before expiry \(before), after \(after)") }
        }
        return problems
    }
}
