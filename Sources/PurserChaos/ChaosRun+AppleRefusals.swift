import AppStoreSimulator

/// No fault family makes Apple refuse a server's key, so every call the simulator's App Store Server API refused for
/// its token (HTTP 401) is a broken run: a server whose key the harness did not register calls Apple in vain, and its
/// purchases that need Apple's answer stay undecided without any fault to explain it.
extension ChaosRun {
    /// `result` and `lanes` with one `apple-refused-call` violation when `server`'s simulator refused any call.
    func addingAppleRefusals(
        of server: ChaosServer, to outcome: (result: ChaosReport.StrategyResult, lanes: [[Violation]])
    ) async -> (result: ChaosReport.StrategyResult, lanes: [[Violation]]) {
        let refused = await server.serverAPI.refusals
        guard refused > 0 else { return outcome }
        let violation = Violation(
            kind: .appleRefusedCall, transactionID: "-",
            detail: "Apple's App Store Server API refused \(refused) calls for their token (HTTP 401)", purchase: nil)
        progress.note(violation.description)
        var (result, lanes) = outcome
        result.counts[.appleRefusedCall, default: 0] += 1
        result.violations = Array(([violation] + result.violations).prefix(50))
        lanes[0].append(violation)
        return (result, lanes)
    }
}
