import AppStoreVerification
import Synchronization

// What the user does with each payment sheet: tests queue outcomes; without one the user pays (or asks a parent).
extension SimulatedDevice {
    /// What the user does with the next payment sheets, in order.
    public func queueOutcomes(_ outcomes: [PaymentOutcome]) {
        state.withLock { $0.outcomes.append(contentsOf: outcomes) }
    }

    /// Drops the outcomes no payment sheet has used yet.
    public func discardQueuedOutcomes() {
        state.withLock { $0.outcomes = [] }
    }

    /// What the user does with the payment sheet; a slow sheet (`payAfter`) stays open that long, then pays.
    func paymentSheet() async -> PaymentOutcome {
        let outcome = nextOutcome()
        guard case .payAfter(let delay) = outcome else { return outcome }
        try? await Task.sleep(for: delay)
        return .pay
    }

    private func nextOutcome() -> PaymentOutcome {
        state.withLock { state in
            if !state.outcomes.isEmpty { return state.outcomes.removeFirst() }
            return configuration.askToBuy ? .askToBuy : .pay
        }
    }
}
