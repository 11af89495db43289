import Foundation

/// A ledger written by an earlier release, as SQL text (`Tests/LedgerFixtures/v<N>.sql`): the rows that release's store
/// wrote, the schema version of each store it was written at, and what must read back after an upgrade.
///
/// The file's format: `-- schema: sqlite N, postgres M` names the versions; `-- expect KIND ARGUMENTS` lines are the
/// expectations (`Expectation`); every other `--` line is a comment; statements end with `;` at the end of a line; a
/// statement after a `-- postgres only` line runs on PostgreSQL alone. Files build on each other: the ledger of
/// version k is made by applying, for each file of version ≤ k in order, the migrations up to its version and then its
/// rows, as a ledger that lived through those releases was written.
public struct LedgerFixture: Hashable, Sendable {
    /// The two stores, whose migration lists have different versions (PostgreSQL has 7 and 9, SQLite has not).
    public enum Store: String, Hashable, Sendable { case sqlite, postgres }

    /// One `-- expect` line.
    public struct Expectation: Hashable, Sendable, CustomStringConvertible {
        /// `balance`, `state`, `audit`, … (see `LedgerUpgradeCheck` for each kind's meaning).
        public var kind: String
        public var arguments: [String]
        public var description: String { ([kind] + arguments).joined(separator: " ") }
    }

    /// One statement and whether it runs on PostgreSQL only.
    public struct Statement: Hashable, Sendable {
        public var sql: String
        public var postgresOnly: Bool
    }

    /// The file's name, e.g. `v4.sql`.
    public var name: String
    /// The schema version the rows were written at, per store.
    public var versions: [Store: Int]
    public var statements: [Statement]
    public var expectations: [Expectation]

    /// The statements `store` runs.
    public func statements(for store: Store) -> [String] {
        statements.filter { store == .postgres || !$0.postgresOnly }.map(\.sql)
    }

    /// Reads `text`, the content of the file `name`.
    public init(name: String, text: String) throws {
        self.name = name
        var versions: [Store: Int] = [:]
        var statements: [Statement] = []
        var expectations: [Expectation] = []
        var pending: [String] = []
        var postgresOnly = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("-- schema:") {
                for part in trimmed.dropFirst("-- schema:".count).split(separator: ",") {
                    let words = part.split(separator: " ")
                    guard words.count == 2, let store = Store(rawValue: String(words[0])), let version = Int(words[1])
                    else { throw FixtureError(name, "cannot read \(trimmed)") }
                    versions[store] = version
                }
            } else if trimmed.hasPrefix("-- expect ") {
                let words = trimmed.dropFirst("-- expect ".count).split(separator: " ").map(String.init)
                guard let kind = words.first else { throw FixtureError(name, "an empty expectation") }
                expectations.append(Expectation(kind: kind, arguments: Array(words.dropFirst())))
            } else if trimmed == "-- postgres only" {
                postgresOnly = true
            } else if !trimmed.hasPrefix("--"), !trimmed.isEmpty {
                pending.append(line)
                if trimmed.hasSuffix(";") {
                    statements.append(Statement(sql: pending.joined(separator: "\n"), postgresOnly: postgresOnly))
                    (pending, postgresOnly) = ([], false)
                }
            }
        }
        guard pending.isEmpty else { throw FixtureError(name, "a statement does not end with ;") }
        guard versions[.sqlite] != nil, versions[.postgres] != nil else {
            throw FixtureError(name, "no -- schema: sqlite N, postgres M line")
        }
        self.versions = versions
        self.statements = statements
        self.expectations = expectations
    }

    /// What the balances of every user the fixtures declare (`balance` expectations) add up to, per currency: the
    /// totals the ledger check must report.
    public static func totals(_ fixtures: [LedgerFixture]) -> [String: Int64] {
        var totals: [String: Int64] = [:]
        for expectation in fixtures.flatMap(\.expectations) where expectation.kind == "balance" {
            let arguments = expectation.arguments
            if arguments.count == 3, let amount = Int64(arguments[2]) { totals[arguments[1], default: 0] += amount }
        }
        return totals.filter { $0.value != 0 }
    }

    /// Every `v<N>.sql` of `directory`, oldest first.
    public static func history(in directory: URL) throws -> [LedgerFixture] {
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            .filter { $0.hasPrefix("v") && $0.hasSuffix(".sql") }
        let fixtures = try names.map { name in
            try LedgerFixture(
                name: name, text: String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8))
        }
        return fixtures.sorted {
            ($0.versions[.sqlite] ?? 0, $0.name.count, $0.name) < ($1.versions[.sqlite] ?? 0, $1.name.count, $1.name)
        }
    }

    /// Builds the ledger of schema `version` on an empty `store`: for each fixture of `history` at a version ≤
    /// `version`, `migrate` up to its version, then `execute` its statements; finally `migrate` up to `version`.
    /// Returns the fixtures it applied.
    public static func build(
        _ history: [LedgerFixture], version: Int, on store: Store,
        migrate: (_ through: Int) async throws -> Void, execute: (_ sql: String) async throws -> Void
    ) async throws -> [LedgerFixture] {
        var applied: [LedgerFixture] = []
        for fixture in history {
            guard let at = fixture.versions[store], at <= version else { continue }
            try await migrate(at)
            for sql in fixture.statements(for: store) {
                do {
                    try await execute(sql)
                } catch {
                    throw FixtureError(fixture.name, "a statement failed: \(String(reflecting: error))\n\(sql)")
                }
            }
            applied.append(fixture)
        }
        try await migrate(version)
        return applied
    }
}

/// A fixture file that cannot be read or applied.
public struct FixtureError: Error, CustomStringConvertible {
    public var description: String

    init(_ name: String, _ message: String) { description = "\(name): \(message)" }
}
