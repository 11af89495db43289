extension ChaosReport {
    /// What the spending game backend did through the admin API in a run.
    public struct Wallet: Codable, Sendable, Hashable {
        public var spends: Int
        public var refused: Int
        public var holds: Int
        public var captured: Int
        public var voided: Int
        public var expiring: Int
        public var replays: Int
        public var unanswered: Int

        init(_ tally: SpendingBackend.Tally) {
            spends = tally.spends
            refused = tally.refused
            holds = tally.holds
            captured = tally.captured
            voided = tally.voided
            expiring = tally.expiring
            replays = tally.replays
            unanswered = tally.unanswered
        }

        /// One line for the report.
        public var line: String {
            "Wallet (the game backend spending through the admin API): \(spends) spends, \(holds) holds (\(captured) "
                + "captured, \(voided) voided, \(expiring) left to expire), \(refused) refused for want of gold; "
                + "\(replays) requests sent again with the same id (spend-retry); \(unanswered) unanswered"
        }
    }
}
