import NIOCore
import NIOPosix

/// A bare TCP connection to the test server that sends whatever bytes a test wants, as slowly as it wants: a client
/// that trickles a body or a head, or idles after a request. It records when the server closed it.
struct RawConnection {
    let channel: any Channel
    let opened: ContinuousClock.Instant

    static func open(port: Int) async throws -> RawConnection {
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connect(host: "127.0.0.1", port: port).get()
        return RawConnection(channel: channel, opened: .now)
    }

    /// Sends `text`; `false` once the server has closed the connection.
    @discardableResult
    func send(_ text: String) async -> Bool {
        guard channel.isActive else { return false }
        do {
            try await channel.writeAndFlush(ByteBuffer(string: text)).get()
            return true
        } catch {
            return false
        }
    }

    /// Sends `text` one byte every `interval` until the server closes the connection or `text` runs out; returns
    /// whether the server closed it.
    func trickle(_ text: String, every interval: Duration) async -> Bool {
        for character in text {
            guard await send(String(character)) else { return true }
            try? await Task.sleep(for: interval)
        }
        return !channel.isActive
    }

    /// Waits up to `limit` for the server to close the connection; the time from `opened` to the close, or `nil`.
    func closed(within limit: Duration) async -> Duration? {
        let deadline = ContinuousClock.now + limit
        while channel.isActive, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(20))
        }
        return channel.isActive ? nil : ContinuousClock.now - opened
    }

    func close() async {
        try? await channel.close().get()
    }
}
