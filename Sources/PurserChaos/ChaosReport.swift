import Foundation

/// The outcome of a run: per strategy, how many purchases broke which invariant; per fault family, how often it
/// was injected, how many of those purchases healed, and how many violations they carry (for Purser).
public struct ChaosReport: Codable, Sendable {
    public struct StrategyResult: Codable, Sendable {
        public var strategy: ChaosStrategy
        public var title: String
        public var purchases: Int
        /// Transactions Apple charged, and those it refunded.
        public var charged: Int
        public var refunded: Int
        /// Of those, the ones Apple refunded in part (`revocationPercentage` below 100%).
        public var partlyRefunded = 0
        /// Charges that landed after the purchase's `buy` had answered (a StoreKit 1 payment that outlasted the wait).
        public var lateCharges: Int
        /// Purchases with nothing charged when their taps ended, by the code the last tap answered (`nil` in older
        /// reports): the SDK refused before any charge, as it must when it cannot reach the server or an earlier
        /// purchase of the product is unfinished.
        public var uncharged: [String: Int]? = nil
        public var counts: [Violation.Kind: Int]
        public var faultPhaseSeconds: Double
        public var healSeconds: Double
        public var purchasesPerSecond: Double
        /// The first violations (all of them are counted in `counts`).
        public var violations: [Violation]
        /// Server replicas killed with SIGKILL during the fault phase (Purser with `--replicas` only).
        public var kills: [ChaosKill] = []
        /// PostgreSQL primaries killed and standbys promoted during the fault phase (`database-failover` only).
        public var failovers: [ChaosFailover] = []
        /// The fault phase by tenths of its purchases: rate and memory (`nil` in older reports and for baselines).
        public var tenths: [ChaosTenth]? = nil
        /// The harness's peak resident memory (VmHWM, bytes) when the checks ended; with the server in process, the
        /// server's too.
        public var harnessPeakResident: Int? = nil
        /// Each `serve` replica's peak resident memory (VmHWM, bytes) when the checks ended (a replica killed and
        /// restarted counts since its restart).
        public var replicasPeakResident: [Int]? = nil

        public var violationCount: Int { counts.values.reduce(0, +) }
        public func count(_ kind: Violation.Kind) -> Int { counts[kind] ?? 0 }
    }

    public struct FamilyRow: Codable, Sendable {
        public var family: FaultFamily
        public var unit: FaultFamily.Unit
        public var rate: Double
        /// Purchases that met the fault (App Store Server API faults: faults injected).
        public var injected: Int
        /// Of those, the ones whose transactions all ended correct.
        public var healed: Int
        /// Violations among those purchases.
        public var violations: Int
    }

    public var seed: UInt64
    public var users: Int
    public var devices: Int
    public var purchases: Int
    public var storage: ChaosStorage
    /// `purser serve` processes behind the front; 0 when the server ran inside the harness.
    public var replicas: Int
    public var families: [FamilyRow]
    public var strategies: [StrategyResult]
    public var reconciliation: String
    /// Purser's webhooks to the game backend (`nil` in reports from before webhooks).
    public var webhooks: Webhooks?
    /// What the spending game backend did through the admin API (`nil` in reports from before the wallet).
    public var wallet: Wallet? = nil
    /// Families asked for that this storage skips (`database-failover` on SQLite); `nil` in older reports.
    public var skipped: [String]? = nil
    /// Apps of one studio behind the server (`--apps`), each running the plan; `nil`: one app.
    public var apps: Int? = nil
    /// The HA manager the database ran under (`--database-ha`: "Patroni", "Patroni behind pgbouncer"); nil: the
    /// harness's own primary and standby.
    public var databaseHA: String? = nil
    /// Purser broke no invariant (and no database failover answered a write with a 500).
    public var passed: Bool
    /// A failed run's directory, kept: each app's ledger and, for violations, `evidence/` (`ChaosEvidence`: the
    /// ledger's copy or dump, the simulator's record, each violating purchase's history). `nil` when it passed.
    public var evidence: String? = nil

    /// Purser's result.
    public var purser: StrategyResult? { strategies.first { $0.strategy == .purser } }

    /// The report as a person reads it.
    public var text: String {
        var lines: [String] = []
        lines.append(
            "purser chaos: seed \(seed), \(purchases) purchases by \(users) users on \(devices) devices, "
                + "storage \(storage.rawValue)"
                + (replicas > 0
                    ? ", \(replicas) purser serve replica\(replicas == 1 ? "" : "s")" : ", server in process")
                + (apps.map { ", \($0) apps of one studio, each running the plan" } ?? ""))
        lines.append("")
        lines.append("Fault families (Purser)")
        let familyRows = families.map { row in
            [
                row.family.rawValue,
                String(format: row.rate > 0 && row.rate < 0.01 ? "%.3f/%@" : "%.2f/%@", row.rate, row.unit.rawValue),
                String(row.injected),
                String(row.healed), String(row.violations),
            ]
        }
        lines += Self.table(["family", "rate", "injected", "healed", "violations"], familyRows)
        lines.append("")
        lines.append("Strategies (same seed, same faults)")
        let strategyRows = strategies.map { result in
            [
                result.title, String(result.purchases), String(result.charged), String(result.lateCharges),
                String(result.count(.lost)),
                String(result.count(.doubled)), String(result.count(.misattributed)),
                String(result.count(.creditedWithoutCharge)), String(result.count(.finishedBeforeDecision)),
                String(result.count(.gameBackendDiffers) + result.count(.webhookIDReused)),
                String(
                    [.walletBalanceDiffers, .appliedTwice, .belowFloor, .walletUnanswered].map(result.count).reduce(
                        0, +)),
                String(result.count(.ledgerCheck)),
                String(format: "%.0f", result.purchasesPerSecond), String(format: "%.1f", result.healSeconds),
            ]
        }
        lines += Self.table(
            [
                "strategy", "purchases", "charged", "late", "lost", "doubled", "misattributed",
                "without charge", "finished early", "game backend", "wallet", "ledger check", "purchases/s", "heal s",
            ], strategyRows)
        lines.append("")
        if let purser {
            lines.append(
                "Refunds: \(purser.refunded) by Apple, \(purser.partlyRefunded) of them partial (REFUND_PRORATED)")
            let uncharged = (purser.uncharged ?? [:]).sorted { $0.key < $1.key }
            let reasons = uncharged.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
            lines.append(
                "Purchases that ended uncharged: \(uncharged.map(\.value).reduce(0, +))"
                    + (uncharged.isEmpty ? "" : " (\(reasons))"))
        }
        if let apps, let purser {
            lines.append(
                "Apps: \(apps), each with its own ledger, all delivering to one game backend that applies each "
                    + "webhook-id once; \(purser.count(.crossApp)) of one app's purchases found in another app's ledger "
                    + "or books (cross-app), \(purser.count(.webhookIDReused)) webhook-ids that came with two bodies")
        }
        if let purser { lines += purser.costLines }
        lines.append("Reconciliation: \(reconciliation)")
        if let webhooks { lines.append(webhooks.line) }
        if let wallet { lines.append(wallet.line) }
        if let kills = purser?.kills, !kills.isEmpty {
            lines.append("Server kills (SIGKILL, then a restart on the same ledger): \(kills.count)")
            for kill in kills { lines.append("  \(kill)") }
        }
        if let failovers = purser?.failovers, !failovers.isEmpty {
            let gaps = failovers.map(\.gapSeconds)
            lines.append(
                String(
                    format: "Database failovers (%@): %d, gap %.2f s to %.2f s",
                    databaseHA.map { "\($0), each a SIGKILL of the leader or a switchover" }
                        ?? "primary SIGKILLed, synchronous standby promoted", failovers.count, gaps.min() ?? 0,
                    gaps.max() ?? 0))
            for failover in failovers { lines.append("  \(failover)") }
        }
        for family in skipped ?? [] {
            lines.append("Skipped: \(family) (needs --storage postgres; SQLite's one file has no standby to promote)")
        }
        if let purser {
            if passed {
                lines.append("PASS: Purser broke no invariant (seed \(seed)).")
            } else {
                if purser.failovers.isEmpty, families.contains(where: { $0.family == .databaseFailover }) {
                    lines.append("FAIL: database-failover was on, and no failover happened.")
                }
                let wrong = purser.failovers.map(\.wrongAnswers).reduce(0, +)
                if wrong > 0 { lines.append("FAIL: \(wrong) writes in a database failover's gap were answered 500.") }
                lines.append(
                    "FAIL: Purser broke \(purser.violationCount) invariant checks. Replay with --seed \(seed).")
                for violation in purser.violations { lines.append("  \(violation)") }
                if let evidence {
                    lines.append(
                        "Evidence kept in \(evidence) (per app: the ledger, evidence/simulator.json, "
                            + "evidence/history-TRANSACTION.txt).")
                }
            }
        }
        return lines.joined(separator: "\n")
    }

    static func table(_ header: [String], _ rows: [[String]]) -> [String] {
        let widths = header.indices.map { column in
            ([header[column]] + rows.map { $0[column] }).map(\.count).max() ?? 0
        }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { column, cell in
                column == 0
                    ? cell.padding(toLength: widths[column], withPad: " ", startingAt: 0)
                    : String(repeating: " ", count: widths[column] - cell.count) + cell
            }.joined(separator: "  ")
        }
        return [line(header), line(widths.map { String(repeating: "-", count: $0) })] + rows.map(line)
    }
}
