import Foundation
import Logging
import ServiceLifecycle

/// The first step of `serve`'s graceful shutdown (SIGTERM, SIGINT), taken before the HTTP server's own: for
/// `seconds` (`http.drainSeconds`) `/ready` answers 503 `draining` while the server still accepts connections and
/// answers every request, kept-alive connections included, so that a load balancer stops sending traffic before the
/// listener closes. Then it returns, and the server's graceful shutdown closes the listener and lets the requests in
/// flight finish. Both ends are logged. A cancellation (a start that failed) ends it at once.
struct DrainService: Service, CustomStringConvertible {
    let drain: ReplicaDrain
    let seconds: Double
    let logger: Logger

    func run() async throws {
        do {
            try await gracefulShutdown()
        } catch {
            return
        }
        guard drain.begin() else {
            logger.notice("stopping before the server listened: nothing to drain")
            return
        }
        let period = String(format: "%g", seconds)
        let started =
            "drain started: /ready answers 503 draining for \(period) s (http.drainSeconds) while every request is "
            + "still answered"
        logger.notice("\(started)")
        try? await Task.sleep(for: .milliseconds(Int64(seconds * 1000)))
        logger.notice(
            "drain ended after \(period) s: the listener closes, the requests in flight finish, then the workers stop")
    }

    var description: String { "DrainService" }
}
