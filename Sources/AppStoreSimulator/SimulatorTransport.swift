import AppStoreVerification
import Foundation
import PurserCore

/// The App Store transport answered in-process by the simulator, so `serve --appstore simulator` needs no network.
/// It honours the caller's time-out: an injected delay longer than it throws, as a real time-out would.
public struct SimulatorTransport: AppStoreHTTPTransport {
    /// URLs to configure `VerifyReceiptClient` with; any URL whose path contains `/sandbox/` is the sandbox.
    public static let productionVerifyReceiptURL = URL(
        string: "http://appstore-simulator.invalid/simulator/production/verifyReceipt")!
    public static let sandboxVerifyReceiptURL = URL(
        string: "http://appstore-simulator.invalid/simulator/sandbox/verifyReceipt")!

    /// A request that took longer than its time-out.
    public struct TimeoutError: Error {}

    public let store: SimulatedAppStore

    public init(store: SimulatedAppStore) {
        self.store = store
    }

    public func send(_ request: AppStoreHTTPRequest) async throws -> AppStoreHTTPResponse {
        guard request.method == "POST", request.url.path.hasSuffix("/verifyReceipt") else {
            return AppStoreHTTPResponse(status: 404, body: Data())
        }
        let endpoint: AppStoreEnvironment = request.url.path.contains("/sandbox/") ? .sandbox : .production
        let (response, delay) = await store.verifyReceipt(body: request.body ?? Data(), endpoint: endpoint)
        if delay > .zero {
            try await Task.sleep(for: min(delay, request.timeout))
            if delay > request.timeout { throw TimeoutError() }
        }
        return response
    }
}
