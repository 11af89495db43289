import Foundation

/// What runs the PostgreSQL of a `database-failover` run (`--database-ha`): the harness's own primary and
/// synchronous standby, which it promotes itself, or the production stack of `scripts/postgres-ha.sh` (etcd, three
/// servers under Patroni in synchronous mode, pgbouncer), where Patroni does the failing over.
public enum ChaosDatabaseHA: Sendable, Hashable {
    case harness
    /// Patroni; the replicas get the three servers in one URL (`target_session_attrs=read-write`), or pgbouncer's
    /// (in transaction pool mode).
    case patroni(script: URL, throughPgbouncer: Bool)

    /// How the report names it; nil for the harness's own pair.
    var title: String? {
        switch self {
        case .harness: nil
        case .patroni(_, let throughPgbouncer):
            throughPgbouncer ? "Patroni behind pgbouncer in transaction mode" : "Patroni"
        }
    }
}
