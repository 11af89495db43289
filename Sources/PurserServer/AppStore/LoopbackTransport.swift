import AppStoreVerification
import Foundation

/// Reaches the App Store simulator served by this very process: requests to `placeholder` go to 127.0.0.1 on the
/// port of the simulator's own App Store Server API listener, known only once it runs. Not the server's port: a
/// request waiting on this call must not need a connection from the server's own limit.
final class LoopbackTransport: AppStoreHTTPTransport, @unchecked Sendable {
    static let placeholder = URL(string: "http://appstore-simulator.invalid")!
    private let lock = NSLock()
    private var port: Int?
    private let http = HTTPClientTransport()

    init() {}

    /// The simulator's App Store Server API now listens on `port`.
    func listening(on port: Int) { lock.withLock { self.port = port } }

    func send(_ request: AppStoreHTTPRequest) async throws -> AppStoreHTTPResponse {
        guard let port = lock.withLock({ self.port }),
            var components = URLComponents(url: request.url, resolvingAgainstBaseURL: false)
        else { throw URLError(.cannotConnectToHost) }
        components.scheme = "http"
        components.host = "127.0.0.1"
        components.port = port
        var rebased = request
        rebased.url = components.url ?? request.url
        return try await http.send(rebased)
    }
}
