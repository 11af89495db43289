import PurserCore
import PurserStorage
import Synchronization
import Testing

@testable import PurserServer

/// How reconciliation schedules its history walks (`Reconciler.forEachAccount`): Apple accounts side by side, up to
/// the limit; the anchors of one Apple account one after another, in order.
@Suite struct ReconcilerAccountsTests {
    @Test func appleAccountsAreWalkedSideBySideAndOneAccountsAnchorsInTurn() async throws {
        struct Tally: Sendable {
            var running: [String?] = []
            var most = 0
            var order: [String: [String]] = [:]
            var overlapped = false
            var reported: [Int] = []
        }
        let tally = Mutex(Tally())
        // Six Apple accounts with two anchors each, and two anchors Apple gave no account.
        var anchors = (0..<12).map {
            HistoryAnchor(owner: UserID("user-\($0)"), transactionID: "t-\($0)", appTransactionID: "apple-\($0 % 6)")
        }
        anchors += [HistoryAnchor(owner: "x", transactionID: "t-x"), HistoryAnchor(owner: "y", transactionID: "t-y")]
        let total = try await Reconciler.forEachAccount(of: anchors, limit: 3) { anchor in
            tally.withLock {
                if let account = anchor.appTransactionID, $0.running.contains(account) { $0.overlapped = true }
                $0.running.append(anchor.appTransactionID)
                $0.most = max($0.most, $0.running.count)
            }
            try await Task.sleep(for: .milliseconds(30))
            tally.withLock {
                $0.running.remove(at: $0.running.firstIndex(of: anchor.appTransactionID)!)
                $0.order[anchor.appTransactionID ?? anchor.owner.rawValue, default: []].append(anchor.transactionID)
            }
            var summary = Reconciler.Summary()
            summary.scanned = 1
            return summary
        } finished: { anchors, _ in
            tally.withLock { $0.reported.append(anchors) }
        }
        let result = tally.withLock { $0 }
        #expect(total.scanned == 14, "every anchor walked once")
        #expect(result.most == 3, "three accounts at a time: not one after another, never more")
        #expect(!result.overlapped, "two anchors of one Apple account walked at once")
        for account in 0..<6 { #expect(result.order["apple-\(account)"] == ["t-\(account)", "t-\(account + 6)"]) }
        #expect(result.reported.sorted() == [1, 1] + Array(repeating: 2, count: 6), "one report per Apple account")
    }
}
