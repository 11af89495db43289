/// The PostgreSQL a `database-failover` run takes its primary away from: the harness's own primary and standby
/// (`PostgresPair`, which it promotes itself) or a Patroni cluster (`PatroniCluster`, which promotes by itself).
protocol FailoverDatabase: Sendable {
    /// The URL every replica gets.
    func url() -> String
    /// Takes the primary away (failover `number`, from 0) and returns what was done, once a new primary was promoted
    /// (its time) or, where the manager promotes by itself, at once.
    func failOver(number: Int) async throws -> FailoverStep
    /// Returns once a synchronous standby is ready again, so the next failover loses nothing either.
    func recover() async throws
    /// Stops every server.
    func stop() async
}

/// What one failover did to the database: the old primary's port, how, and how long the promotion took (nil when
/// the manager promotes by itself and the harness does not see the moment).
struct FailoverStep: Sendable {
    var killedPort: Int
    var how: String
    var promotedAfterSeconds: Double?
}

extension PostgresPair: FailoverDatabase {
    func url() -> String { url(standbyFirst: false) }

    func failOver(number: Int) async throws -> FailoverStep {
        let port = primaryPort
        let clock = ContinuousClock()
        let start = clock.now
        killPrimary()
        try await promoteStandby()
        return FailoverStep(
            killedPort: port, how: "primary SIGKILLed, standby promoted by the harness",
            promotedAfterSeconds: (clock.now - start).seconds)
    }

    func recover() async throws { try await rebuildStandby() }
}
