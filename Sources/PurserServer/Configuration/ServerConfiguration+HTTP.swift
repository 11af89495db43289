import Hummingbird
import HummingbirdCore
import Logging
import NIOCore

extension ServerConfiguration.HTTP {
    /// Hummingbird's HTTP/1 channel with the idle timeout (an idle keep-alive connection or a stalled request head)
    /// and, after the HTTP codec, the read deadline of a whole request (`RequestReadDeadlineHandler`).
    var channelConfiguration: HTTP1Channel.Configuration {
        let idle = Self.timeAmount(idleTimeoutSeconds)
        let read = Self.timeAmount(requestReadTimeoutSeconds)
        return HTTP1Channel.Configuration(
            additionalChannelHandlers: read.map { [RequestReadDeadlineHandler(timeout: $0)] } ?? [],
            idleTimeout: idle)
    }

    /// Hummingbird's bound on open connections: past it the server stops accepting until one closes.
    func connectionLimit(logger: Logger) -> (any AvailableConnectionsDelegate)? {
        maxConnections > 0 ? MaximumAvailableConnections(maxConnections, logger: logger) : nil
    }

    /// `drainSeconds` must be a number of seconds, 0 or more; `threads` a count from 0 to 1024.
    func check() throws(ConfigurationError) {
        guard drainSeconds >= 0, drainSeconds.isFinite else {
            throw ConfigurationError("http.drainSeconds must be 0 (close the listener at once) or more")
        }
        guard (0...1024).contains(threads) else {
            throw ConfigurationError("http.threads must be 0 (one event-loop thread per core) to 1024, not \(threads)")
        }
    }

    /// The event loops that serve HTTP: `threads` of them, or one per core.
    var eventLoopGroupProvider: EventLoopGroupProvider { ServerEventLoops.provider(threads: threads) }

    /// Seconds as NIO's time amount; `nil` (off) for 0 or less.
    static func timeAmount(_ seconds: Double) -> TimeAmount? {
        seconds > 0 ? .nanoseconds(Int64(seconds * 1_000_000_000)) : nil
    }
}
