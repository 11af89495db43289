import AppStoreSimulator

/// No fault family makes Apple refuse a server's key, so every call the simulator's App Store Server API refused for
/// its token (HTTP 401) is a broken run: a server whose key the harness did not register calls Apple in vain, and its
/// purchases that need Apple's answer stay undecided without any fault to explain it.
extension ChaosRun {
    /// `result` and `lanes` with one `apple-refused-call` violation when `server`'s simulator refused any call.
    func addingAppleRefusals(
        of server: ChaosServer, to outcome: (result: ChaosReport.StrategyResult, lanes: [[Violation]])
    ) async -> (result: ChaosReport.StrategyResult, lanes: [[Violation]]) {
        // The heal moves a shared clock on by a day: a token made just before that expires in flight, as it would.
        var refused = await server.serverAPI.refusals
        if server.sharesClock, let expired = refused.removeValue(forKey: "expired") {
            progress.note("Apple refused \(expired) calls whose token expired as the heal moved the clock on (allowed)")
        }
        guard !refused.isEmpty else { return outcome }
        let reasons = refused.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        let violation = Violation(
            kind: .appleRefusedCall, transactionID: "-",
            detail: "Apple's App Store Server API refused \(refused.values.reduce(0, +)) calls for their token "
                + "(HTTP 401: \(reasons))", purchase: nil)
        progress.note(violation.description)
        var (result, lanes) = outcome
        result.counts[.appleRefusedCall, default: 0] += 1
        result.violations = Array(([violation] + result.violations).prefix(50))
        lanes[0].append(violation)
        return (result, lanes)
    }
}
