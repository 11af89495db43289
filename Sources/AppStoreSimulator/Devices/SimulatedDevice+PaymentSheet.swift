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

    /// Slow payment sheets open now, whose charge has not landed yet (the chaos harness waits for them before it
    /// heals: a user who is still paying has not been charged).
    public var openPaymentSheets: Int { state.withLock { $0.openSheets } }

    /// What the user does with the payment sheet; a slow sheet (`payAfter`) stays open that long, then pays. A slow
    /// sheet counts in `openPaymentSheets` until its caller's charge is done (`chargeLanded`).
    func paymentSheet() async -> PaymentOutcome {
        let outcome = nextOutcome()
        switch outcome {
        case .payAfter(let delay):
            state.withLock { $0.openSheets += 1 }
            try? await Task.sleep(for: delay)
        case .payWhenReleased:
            state.withLock { $0.openSheets += 1 }
            await withCheckedContinuation { continuation in
                let released = state.withLock { state in
                    if state.earlyReleases > 0 {
                        state.earlyReleases -= 1
                        return true
                    }
                    state.heldSheets.append(continuation)
                    return false
                }
                if released { continuation.resume() }
            }
        default:
            break
        }
        return outcome
    }

    /// The user pays on the oldest held sheet (`payWhenReleased`); a release before any sheet is held pays the next.
    public func releaseHeldSheet() {
        let held = state.withLock { state -> CheckedContinuation<Void, Never>? in
            if state.heldSheets.isEmpty {
                state.earlyReleases += 1
                return nil
            }
            return state.heldSheets.removeFirst()
        }
        held?.resume()
    }

    /// The charge after `outcome` landed (or failed): a slow sheet is closed now.
    func chargeLanded(after outcome: PaymentOutcome) {
        switch outcome {
        case .payAfter, .payWhenReleased: state.withLock { $0.openSheets -= 1 }
        default: break
        }
    }

    private func nextOutcome() -> PaymentOutcome {
        state.withLock { state in
            if !state.outcomes.isEmpty { return state.outcomes.removeFirst() }
            return configuration.askToBuy ? .askToBuy : .pay
        }
    }
}
