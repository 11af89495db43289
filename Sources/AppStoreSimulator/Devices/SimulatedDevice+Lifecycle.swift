import AppStoreVerification
import Foundation
import Synchronization

// The app's life on the device: launch, kill, uninstall. StoreKit's queue outlives all three.
extension SimulatedDevice {
    /// Starts the app (killing a running one first) and returns the new process.
    public func launch() -> SimulatedProcess {
        kill()
        try? FileManager.default.createDirectory(at: containerDirectory, withIntermediateDirectories: true)
        try? FileManager.default.createDirectory(at: keychainDirectory, withIntermediateDirectories: true)
        let generation = state.withLock { state in
            state.generation += 1
            state.running = true
            return state.generation
        }
        return SimulatedProcess(device: self, generation: generation)
    }

    /// Kills the app: its memory is gone, observers and listeners stop; StoreKit's queue and files stay.
    public func kill() {
        let listeners = state.withLock { state in
            state.running = false
            state.observers = [:]
            defer { state.listeners = [:] }
            return Array(state.listeners.values)
        }
        for listener in listeners { listener.finish() }
    }

    /// Kills and deletes the app: its container (journal files, receipt) goes; the Keychain and StoreKit's queue stay.
    public func uninstall() {
        kill()
        try? FileManager.default.removeItem(at: containerDirectory)
        state.withLock { state in
            state.receiptPresent = false
            state.appTransaction = nil
        }
    }

    /// Whether `process` is the app's running process (a killed one's calls are ignored).
    func isRunning(_ process: SimulatedProcess) -> Bool {
        state.withLock { $0.running && $0.generation == process.generation }
    }
}
