import Foundation

extension ChaosRun {
    /// database-failover's PostgreSQL: a primary and a synchronous standby of the run's own (the replicas get
    /// both), or the Patroni stack (`--database-ha`).
    func startDatabase(in directory: URL) async throws -> any FailoverDatabase {
        switch configuration.databaseHA {
        case .harness:
            progress.note("starting a PostgreSQL primary and its synchronous standby")
            return try await PostgresPair.start(in: directory, database: "purser")
        case .patroni(let script, let throughPgbouncer):
            progress.note(
                "starting etcd, three PostgreSQL servers under Patroni and pgbouncer (\(script.lastPathComponent))")
            return try await PatroniCluster.start(
                script: script, in: directory, entry: throughPgbouncer ? .pgbouncer : .direct)
        }
    }
}
