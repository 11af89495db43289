/// Where the server under test keeps its ledger.
public enum ChaosStorage: String, Sendable, Codable, CaseIterable {
    /// The embedded SQLite ledger (WAL, `synchronous=FULL`) in the run's directory.
    case sqlite
    /// PostgreSQL, shared by every replica (`--replicas N`).
    case postgres
}
