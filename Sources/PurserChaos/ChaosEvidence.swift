import AppStoreSimulator
import AppStoreVerification
import Foundation
import Logging
import PurserCore
import PurserStorage

/// What a failed run keeps, so that its cause can be found without replaying it (a failure may depend on timing):
/// the ledger itself (a consistent SQLite copy, or a `pg_dump` of the PostgreSQL database), the simulator's record
/// (every purchase Apple holds and every notification it sent, with its attempts), and for each violating purchase
/// its history: what the harness planned and saw, Apple's record, the notifications about it and every ledger row
/// that names it. Written while the run's server is still up, in the run's directory, which is then kept.
struct ChaosEvidence {
    let server: ChaosServer
    let record: ChaosRecord
    let plan: ChaosPlan
    let violations: [Violation]

    /// How many violating purchases get a history of their own (the rest are in `violations.txt`).
    static let histories = 20

    /// Writes everything into `directory` (made afresh); returns what could not be written, if anything.
    func write(to directory: URL) async -> [String] {
        var problems: [String] = []
        func attempt(_ what: String, _ body: () async throws -> Void) async {
            do { try await body() } catch { problems.append("\(what): \(error)") }
        }
        await attempt("the directory") {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        }
        await attempt("violations.txt") {
            try Data(violations.map(\.description).joined(separator: "\n").utf8)
                .write(to: directory.appendingPathComponent("violations.txt"))
        }
        await attempt("simulator.json") {
            try await simulatorRecord().write(to: directory.appendingPathComponent("simulator.json"))
        }
        await attempt("the ledger") { try await copyLedger(into: directory) }
        let ids = violations.map(\.transactionID).filter { !$0.hasPrefix("balance:") }
        for id in Array(NSOrderedSet(array: ids).compactMap { $0 as? String }.prefix(Self.histories)) {
            await attempt("history of \(id)") {
                try Data(try await history(of: id).utf8)
                    .write(to: directory.appendingPathComponent("history-\(Self.fileName(id)).txt"))
            }
        }
        if !problems.isEmpty {
            try? Data(problems.joined(separator: "\n").utf8)
                .write(to: directory.appendingPathComponent("problems.txt"))
        }
        return problems
    }

    /// Every purchase the simulator holds and every notification it sent, as JSON.
    private func simulatorRecord() async throws -> Data {
        struct Record: Encodable {
            var purchases: [SimulatedPurchase]
            var notifications: [SentNotification]
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        encoder.dateEncodingStrategy = .iso8601
        return try encoder.encode(
            Record(
                purchases: await server.appStore.purchases(),
                notifications: try await server.appStore.notificationHistory()))
    }

    /// The ledger as it is now: a consistent copy of the SQLite file, or a `pg_dump` of the PostgreSQL database.
    private func copyLedger(into directory: URL) async throws {
        if let file = server.ledgerFile {
            _ = try await SQLiteLedgerStore.backup(
                ledger: file, to: directory.appendingPathComponent("ledger.sqlite").path, logger: .init(label: "chaos"))
        } else if let url = server.databaseURL {
            let dump = directory.appendingPathComponent("ledger.sql")
            let completed = try await ChildCommand.run(
                try Self.program("pg_dump"), ["--dbname=\(url)", "--file=\(dump.path)", "--no-owner"])
            guard completed.status == 0 else {
                throw ChaosError(.setupFailed, "pg_dump failed: \(completed.standardError.suffix(400))")
            }
        }
    }

    /// One purchase's history, as text: the plan and the harness's record, Apple's record, the notifications about
    /// it, and every ledger row naming it.
    private func history(of transactionID: String) async throws -> String {
        var lines = ["# \(transactionID)", ""]
        for violation in violations where violation.transactionID == transactionID {
            lines.append("violation: \(violation)")
        }
        if let charge = record.charge(transactionID) {
            let families =
                plan.devices.flatMap(\.purchases).first { $0.index == charge.purchase }
                .map { $0.families.map(\.rawValue).sorted().joined(separator: ", ") } ?? "?"
            lines.append(
                "harness: purchase #\(charge.purchase) by \(charge.buyer) of \(charge.productID); fault families: "
                    + families)
        }
        if let early = record.earlyFinishes[transactionID] {
            lines.append("finished early while the ledger showed \(early)")
        }
        lines += ["", "## Apple's record"]
        if let purchase = await server.appStore.purchase(transactionID: transactionID) {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            lines.append(String(decoding: try encoder.encode(purchase), as: UTF8.self))
        } else {
            lines.append("(Apple has no record of it)")
        }
        lines += ["", "## Notifications Apple sent about it"]
        for sent in try await server.appStore.notificationHistory() where sent.transactionId == transactionID {
            lines.append(
                "\(sent.createdAt) \(sent.notificationType)\(sent.subtype.map { "/\($0)" } ?? "") "
                    + "\(sent.notificationUUID): attempts \(sent.attempts), delivered \(sent.delivered)")
        }
        lines += ["", "## The ledger's rows that name it"]
        for row in try await server.store.rowsMentioning(transactionID) {
            let columns = row.values.sorted { $0.key < $1.key }.map { "\($0.key)=\(Self.text($0.value))" }
            lines.append("\(row.table): \(columns.joined(separator: " "))")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A stored value as the history shows it.
    static func text(_ value: LedgerRow.Value) -> String {
        switch value {
        case .text(let text): text
        case .integer(let number): String(number)
        case .null: "NULL"
        }
    }

    /// `id` as a file name: letters, digits, `-` and `_` only.
    static func fileName(_ id: String) -> String {
        String(id.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" ? $0 : "_" }.prefix(80))
    }

    /// A PostgreSQL client program, on `PATH` or in the newest `/usr/lib/postgresql/N/bin`.
    static func program(_ name: String) throws -> URL {
        let files = FileManager.default
        let path = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init)
        let versions = ((try? files.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? [])
            .compactMap(Int.init).sorted().reversed().map { "/usr/lib/postgresql/\($0)/bin" }
        guard let found = (versions + path).first(where: { files.isExecutableFile(atPath: "\($0)/\(name)") }) else {
            throw ChaosError(.setupFailed, "\(name) is not installed (Debian's postgresql-client)")
        }
        return URL(fileURLWithPath: "\(found)/\(name)")
    }
}
